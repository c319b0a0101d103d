"""``snooker-tracker batch`` and ``hall`` (tracker/scale): one task per video, resumable; tables
as Ray actors feeding one store. Ray tests skip when the ray extra is not installed."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tracker.outputs.store import MatchStore
from tracker.scale.batch import BatchError, list_videos, plan, run_batch

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_videos" / "overhead_free_ball.mp4"


@pytest.fixture(scope="module")
def clips(tmp_path_factory):
    """Three short clips (the first 30 frames of a sample, 1080p) in a folder."""
    imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg")
    d = tmp_path_factory.mktemp("clips")
    subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-loglevel", "error", "-i", str(SAMPLE),
                    "-frames:v", "30", "-c:v", "libx264", "-preset", "ultrafast",
                    str(d / "a.mp4")], check=True)
    for n in ("b", "c"):
        (d / f"{n}.mp4").write_bytes((d / "a.mp4").read_bytes())
    return d


def test_videos_come_from_a_folder_or_a_list(clips, tmp_path):
    assert [Path(v).name for v in list_videos(clips)] == ["a.mp4", "b.mp4", "c.mp4"]
    lst = tmp_path / "list.txt"
    lst.write_text(f"# two of them\n{clips / 'c.mp4'}\n{clips / 'a.mp4'}\n")
    assert [Path(v).name for v in list_videos(lst)] == ["c.mp4", "a.mp4"]
    assert [j.name for j in plan(["x/a.mp4", "y/a.mp4"])] == ["a", "a-2"]
    with pytest.raises(BatchError, match="no such folder"):
        list_videos(tmp_path / "nothing")
    lst.write_text("missing.mp4\n")
    with pytest.raises(BatchError, match="do not exist"):
        list_videos(lst)


def test_a_killed_batch_redoes_only_the_unfinished_videos(clips, tmp_path):
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "tracker.cli", "batch", str(clips), "--out", str(out), "--no-ray"]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    deadline = time.time() + 120
    while not (out / "a" / "done.json").exists():
        assert time.time() < deadline and first.poll() is None, "the first video never finished"
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)
    first.wait()
    done_before = {n: (out / n / "done.json").stat().st_mtime_ns
                   for n in "abc" if (out / n / "done.json").exists()}
    assert "a" in done_before
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert again.returncode == 0, again.stderr
    redone = {line.split(":")[0] for line in again.stdout.splitlines() if ": done" in line}
    assert redone == set("abc") - set(done_before)
    res = json.loads(again.stdout.strip().splitlines()[-1])
    assert res["skipped"] == len(done_before) and res["done"] == 3 - len(done_before)
    for n, t in done_before.items():  # not touched again
        assert (out / n / "done.json").stat().st_mtime_ns == t
    index = json.loads((out / "index.json").read_text())
    assert [v["status"] for v in index["videos"]] == ["done"] * 3


@pytest.fixture(scope="module")
def ray_local():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


def test_batch_on_ray_fills_one_store_per_video_and_the_index(clips, tmp_path, ray_local):
    res = run_batch(clips, tmp_path, use_ray=True)
    assert res["done"] == 3 and res["failed"] == 0
    index = json.loads((tmp_path / "index.json").read_text())
    for v in index["videos"]:
        store = MatchStore(v["store"], readonly=True)
        run = store.latest_run()
        assert run["status"] == "finished" and run["video"].endswith(f"{v['name']}.mp4")
        store.close()
    again = run_batch(clips, tmp_path, use_ray=True)  # nothing left to do
    assert again["done"] == 0 and again["skipped"] == 3


def test_hall_runs_tables_as_actors_into_one_store(clips, tmp_path, ray_local):
    from tracker.scale.hall import load_config, run_hall

    cfg_path = tmp_path / "hall.json"
    cfg_path.write_text(json.dumps({"out": str(tmp_path / "hall"), "tables": [
        {"name": "table-1", "source": str(clips / "a.mp4"), "players": ["Ann", "Bob"]},
        {"name": "table-2", "source": str(clips / "b.mp4"), "players": ["Cy", "Di"]}]}))
    results = run_hall(load_config(cfg_path))
    assert sorted(r["table"] for r in results) == ["table-1", "table-2"]
    assert all(r["status"] == "done" for r in results)
    store = MatchStore(tmp_path / "hall" / "match.sqlite", readonly=True)
    videos = sorted(r["video"].split(":")[0] for r in store.runs())
    store.close()
    assert videos == ["table-1", "table-2"]
