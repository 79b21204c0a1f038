"""``python -m conformance`` is the ``pas`` command."""

import sys

from conformance.cli.main import main

sys.exit(main())
