"""Rebuilding the reader's models: real card images and the rendered ones, the training and
calibration scripts. Needs the ``train`` extra; not run by the tests' table code or in CI."""
