"""Many videos and many tables: ``snooker-tracker batch`` (:mod:`tracker.scale.batch`) and
``snooker-tracker hall`` (:mod:`tracker.scale.hall`), on Ray (the ``ray`` extra) or, for batch,
a plain loop in this process."""
