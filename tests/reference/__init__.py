"""An independent reference implementation of the replay contract, for differential tests."""
