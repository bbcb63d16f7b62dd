"""Stage 5: history — every install and verify kept, which environment is current, and rollback."""
