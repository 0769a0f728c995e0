"""Rule profiles: which wagers a regulation permits and what it pays, as data (one TOML file each)."""

from croupier.rules.profile import (
    PROFILE_IDS,
    CommissionBase,
    CommissionTiming,
    CrapsRules,
    GameRules,
    Profile,
    ProfileError,
    RouletteRules,
    load_profile,
)

__all__ = [
    "PROFILE_IDS", "CommissionBase", "CommissionTiming", "CrapsRules", "GameRules", "Profile",
    "ProfileError", "RouletteRules", "load_profile",
]
