# Play over days on Discord (issue 18): who paused, expiries that name the right player,
# a resign question only its asker answers, a log cut to its newest entries.

service-players_paused = Both players paused this game: to play on, one of you asks to resume (/vl pause) and the other agrees.
service-referee_paused = The referee paused this game: only the referee resumes it.

discord-status-paused-players = Paused by both players.
discord-expired-setup = Time is up for { $user }'s setup step ({ $count } missed in a row): the step is still theirs, with a new deadline.
discord-expired-forfeit = Time is up for { $user }'s turn: { $count } missed in a row, and the game is forfeited.
discord-resign-not-yours = This question is { $user }'s alone: your press changed nothing. To resign yourself, type `resign` in the thread or use /vl resign.
discord-log-left-out = { $count ->
        [one] (1 older entry left out)
       *[other] ({ $count } older entries left out)
    }
