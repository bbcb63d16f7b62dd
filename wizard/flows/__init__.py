"""Use cases: the pipelines both faces run, built from the stages below them (the session: survey and plan;
the install transaction; the rollback transaction). Only this layer and the faces above it may combine
stages that do not know each other (an install runs, is recorded in the history, then verified)."""
