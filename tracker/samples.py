"""The bundled sample video: found in the installed package, or in the source checkout.

``process`` with no video referees the overhead sample (``sample_videos/overhead_frame.mp4``).
A wheel carries it as package data (``tracker/examples/overhead_frame.mp4``, a link to the
checkout's file that the build copies); an editable install finds it in the checkout.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

SAMPLE_NAME = "overhead_frame.mp4"
#: Where an installed package keeps the sample.
PACKAGED = Path(str(resources.files("tracker").joinpath("examples", SAMPLE_NAME)))
#: Where a source checkout keeps it.
CHECKOUT = Path(__file__).resolve().parents[1] / "sample_videos" / SAMPLE_NAME


class SampleMissing(FileNotFoundError):
    """Neither the package nor a checkout holds the sample; the message says what to do."""


def sample_video() -> Path:
    """The bundled sample video's path.

    Raises:
        SampleMissing: this installation has no copy (a package built without its data).
    """
    for p in (PACKAGED, CHECKOUT):
        if p.is_file() and p.stat().st_size > 0:
            return p
    raise SampleMissing("no video given and this installation holds no copy of the bundled "
                        f"sample ({SAMPLE_NAME}); give a VIDEO to process (the sample is "
                        "sample_videos/overhead_frame.mp4 in the source repository)")
