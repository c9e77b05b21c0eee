# Issue 22: the search player's hint ("hint", /vl odds best) and the hard bot's reasons
hint-intro = { $count ->
    [one] The best action the search sees now:
   *[other] The { $count } best actions the search sees now:
}
hint-line = { $place }. { $order } — { $value }
hint-value = { $value } HP against the first
hint-value-win = wins the game
hint-value-loss = loses the game
hint-odds = (expects { $damage } damage: { $chance }% to wound, { $kill }% to destroy)
hint-why = The bot's thought — { $order }: { $value }
hint-hotseat = A hint is only given in a game against the automatic player: in a game between two people it would play for one of them. Start one with --vs hard (or /vl new opponent: bot).
hint-not-now = There is no move to hint now: a hint is for your turn, once nothing else is waiting (advance, placing a passenger).
orders-example-hint = hint
orders-help-hint = hint — “{ orders-example-hint }”: the three best actions the search player sees now (games against the bot only).
orders-help-hint-details = Shows, as orders you can type, the three actions the hard automatic player would rank highest in your place, with the value it expects of each (in HP of damage, against its own first choice) and, for an attack, its exact odds. Not in a game between two people.
hint-in-discord = In Discord a hint is asked with /vl odds best: true (in a game against the bot); only you see the answer.
hint-why-odds = ; { $damage } damage expected, { $chance }% to wound
discord-opt-best = best
discord-opt-best-desc = Instead: the three best actions the search player sees for you now (games against the bot)
discord-hint-not-practice = A hint (/vl odds best: true) is only given in a game against the bot: in a game between two people it would play for one of them. Start a practice game with /vl new opponent: bot.
discord-hint-odds-needs-units = Name the attacking unit and its target (/vl odds unit: tac1 target: kab1), or ask for the best actions with /vl odds best: true.
hint-first = its choice
hint-ahead = { $value } HP ahead of the next best
hint-kept = the plain choice: the search saw no clear gain over it
