"""Which episode the player opens with (spec §2, "Episode choice, in order")."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class EpisodeRef:
    """The little the choice needs to know about an episode."""

    id: int
    order: int
    season_order: int | None = None  # None for a film's single episode


def play_order(episodes: Sequence[EpisodeRef]) -> list[EpisodeRef]:
    """Season order, then episode order (spec §4: the order "next episode" follows). Seasonless ones first."""
    return sorted(episodes, key=lambda e: (e.season_order is not None, e.season_order or 0, e.order, e.id))


def choose_episode(
    episodes: Sequence[EpisodeRef],
    *,
    episode_id: int | None = None,
    season: int | None = None,
    episode: int | None = None,
    completed: Collection[int] = (),
) -> EpisodeRef | None:
    """The four rules, in order; a rule whose parameters match nothing falls through to the next.

    1. an explicit episode_id of this content wins;
    2. else season plus episode (episode defaults to 1), matched on season order and episode order;
    3. else the first episode not completed;
    4. else the first episode.
    """
    ordered = play_order(episodes)
    if not ordered:
        return None
    if episode_id is not None:
        for candidate in ordered:
            if candidate.id == episode_id:
                return candidate
    if season is not None:
        wanted = episode if episode is not None else 1
        for candidate in ordered:
            if candidate.season_order == season and candidate.order == wanted:
                return candidate
    for candidate in ordered:
        if candidate.id not in completed:
            return candidate
    return ordered[0]
