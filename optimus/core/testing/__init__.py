"""Files the harness places beside generated and supervised tests (see conftest.py)."""

from pathlib import Path

CONFTEST = Path(__file__).with_name("conftest.py")
