"""K2 for anyone: a game's exported log, and a checker of every die in it.

``python -m vahalite_bot.verify FILE`` needs nothing but the file (no database, no bot):
see docs/dice.md. The checker (``check``) imports only the dice derivation; the exporter
(``export``) reads a game through the service and lives apart, so that checking a file
never touches a database.
"""

from vahalite_bot.verify.check import Problem, Report, check_lines, check_text
from vahalite_bot.verify.logfile import FORMAT, VERSION, LogFileError

__all__ = [
    "FORMAT",
    "VERSION",
    "LogFileError",
    "Problem",
    "Report",
    "check_lines",
    "check_text",
]
