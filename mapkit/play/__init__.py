"""Play a game at the terminal (``mapkit play``): the session, and reading typed answers."""

from mapkit.play.answers import HELP, choices_text, match_station, parse_choice
from mapkit.play.session import (
    PlayError,
    Quit,
    Session,
    ask_action,
    bot_rng,
    new_session,
    play,
    record,
    recordable,
    replayed,
    resume_session,
    saved_record,
)

__all__ = [
    "HELP", "PlayError", "Quit", "Session", "ask_action", "bot_rng", "choices_text",
    "match_station", "new_session", "parse_choice", "play", "record", "recordable", "replayed",
    "resume_session", "saved_record",
]  # fmt: skip
