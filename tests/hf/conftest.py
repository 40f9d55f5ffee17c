import pytest


@pytest.fixture(autouse=True, scope="package")
def patched():
    """transformers is patched while these tests run, and unpatched after."""
    pytest.importorskip("transformers")
    import mtok

    mtok.patch_transformers()
    yield
    mtok.unpatch_transformers()
