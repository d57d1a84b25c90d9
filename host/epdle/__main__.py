import sys

from epdle.cli import main

sys.exit(main())
