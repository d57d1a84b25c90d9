"""The gpsim runners here (*_test.py) are scripts `make pic-test` runs, not pytest modules."""

collect_ignore_glob = ["*_test.py"]
