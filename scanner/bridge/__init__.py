"""Duplicate bridge: the deal rules (Laws 6–7), board files, deal sets, verification, records."""
