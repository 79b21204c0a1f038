"""The tests' shared helpers, one module per kind of test (imported as ``support.NAME``).

tests/ is on ``sys.path`` during a pytest run (pytest puts the folder of the root conftest there),
so any test imports ``from support.runner_support import ...``. Nothing here is collected as a
test; the fakes the helpers load are in tests/fakes/.
"""
