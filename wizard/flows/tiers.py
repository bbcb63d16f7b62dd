"""The GraphCast check's tiers as both faces name them: the tier value, its title, the GenCast tier.

Light on purpose (only `verify.protocol`): the app's Verify screen is loaded before its first frame.
"""

from __future__ import annotations

from wizard.verify.protocol import GENCAST_TIER, TIER_TITLES, Tier

__all__ = ["GENCAST_TIER", "TIER_TITLES", "Tier"]
