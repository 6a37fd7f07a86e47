import sys

from tavrei_lab.cli import main

sys.exit(main())
