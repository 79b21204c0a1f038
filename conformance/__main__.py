"""``python -m conformance`` is the ``pas`` command."""

import sys

from conformance.cli import main

sys.exit(main())
