"""Stage 4: verify — the GraphCast check inside an environment, and diagnosis of what a failure means."""
