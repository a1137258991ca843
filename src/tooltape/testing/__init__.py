"""Test harness: pytest plugin, cassettes, matching, contracts, snapshots and faults."""
