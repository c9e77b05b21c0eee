# Refusals of the game service (vahalite_bot/app): one message per ServiceError code.
# Each says what is wrong and, where it helps, what to do instead.

service-not_admin = Only the server's administrator can change its settings.
service-not_referee = Only the referee can do that.
service-not_a_player = You are not playing in this game.
service-channel_busy = This channel already has a game (#{ $game }): finish it before starting another.
service-already_joined = You are already in this game.
service-game_full = This game already has two players.
service-game_started = The game has already begun: armies and players are fixed.
service-game_not_started = The game has not begun yet: both players must join and submit their armies.
service-game_over = The game is over.
service-game_not_over = The dice seed is revealed when the game ends.
service-game_paused = The referee has paused the game: wait until it is resumed.
service-bot_rolls = The bot makes the roll-off itself.
service-not_your_side = You play the other side, not { $side }.
service-undo_count = You can undo between 1 and { $maximum } actions at once, not { $count }.
service-nothing_to_undo = { $available ->
        [0] There is nothing of yours this turn to undo.
        [one] Only your last action can be undone, not { $count }.
       *[other] Only your last { $available } actions can be undone, not { $count }.
    }
service-undo_not_this_turn = Entry { $seq } is from an earlier turn: only the referee can undo it.
service-undo_not_own = Entry { $seq } is not your own action: only the referee can undo it.
service-undo_needs_consent = Dice were rolled: ask your opponent to agree to the undo, or ask the referee.
service-no_undo_request = There is no open undo request to answer.
service-not_your_request = You cannot answer your own undo request: your opponent does.
service-seed_revealed = The dice seed has been revealed: this game can no longer be undone.
service-no_turn_to_end = There is no turn to end: the game is still being set up.
service-no_deadline = This game has no running deadline.
service-already_paused = The game is already paused.
service-not_paused = The game is not paused.
service-no_game = There is no game #{ $game }.
service-no_game_in_channel = There is no game in this channel: start one first.
service-stale = The game changed since you looked (version { $expected }, now { $current }): check the board and give your order again.
service-busy = The game is busy with other orders: try again in a moment.
service-unknown_scenario = There is no scenario “{ $scenario }”.
service-bad_points_limit = A game is played at { $allowed } points, not { $points }.
service-bad_deadline = A turn's deadline is { $low } to { $high } hours, not { $hours }.
service-bad_language = The language must be one of { $allowed }, not “{ $language }”.
service-bad_forfeit = A game is forfeited after at least 1 missed turn, not { $count }.
service-bad_hp = { $unit } can have 1 to { $maximum } HP, not { $hp }: to take it off the board, remove it.
service-roster_rejected = The army list is not legal: { $count ->
        [one] 1 problem
       *[other] { $count } problems
    } to fix.
# K2: a player's word for the dice seed (docs/dice.md)
service-bad_word = A word for the dice is 1 to { $limit } printable characters on one line.
# Servers: roles and the administrator flag count only on their own server.
service-other_server = Your roles and rights on another server count for nothing here.
service-referee_plays = You play in this game, so you cannot referee it: this server does not allow that.
service-transport_not_on_board = { $unit } is not on the board: there is nothing to embark on.
service-off_board = { $cell } is not on this game's board: name a cell of the board, e.g. C4.
# Idempotency keys: one key, one command.
service-key_reused = This request id was already used for another order ({ $command }): send a new one.
# Values checked at the service's edge (the argument's name is the program's, not a player's).
service-bad_type = “{ $argument }” has the wrong kind of value.
service-bad_range = “{ $argument }” must be from { $low } to { $high }.
service-bad_length = “{ $argument }” must be 1 to { $maximum } characters long.
service-bad_text = “{ $argument }” contains characters that are not allowed.
service-bad_count = “{ $argument }” has too many items (at most { $maximum }).
service-bad_cell = “{ $argument }” is not a cell of any board.
service-bad_argument = There is no option “{ $argument }”.
service-pause_asked = You have asked already: your opponent agrees with the button under your request, or with the same command.
service-bad_remind = A reminder comes 1 to { $high } hours before the deadline (0: the default rule), not { $hours }.
