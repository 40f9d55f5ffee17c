import pytest

from corpus import available


def pytest_report_header(config):
    from corpus import CORPUS

    return f"corpus: {CORPUS} ({'found' if available() else 'MISSING: corpus tests skip'})"
