# House-rule decisions on Discord (rules M3, M5, M6, M8): buttons, the asking line,
# the slash commands and options, autocomplete.

discord-btn-all-advance = All advance
discord-btn-no-reserves = No reserves now

discord-ask-orders = { $who } gives this turn's orders first (M3): { $how ->
        [text] write them here, e.g. `orders { $unit } assault`, or use `/vl setup orders`
       *[slash] `/vl setup orders orders: { $unit } assault`
    }; **All advance** gives every unit Advance.
discord-ask-reserves = { $who } may bring in reserves first (M5): { $how ->
        [text] write e.g. `arrive { $unit } { $cell }` here, or use `/vl setup deploy`
       *[slash] `/vl setup deploy unit: { $unit } cell: { $cell }`
    }; **No reserves now** brings none this turn.

discord-cmd-orders = orders
discord-cmd-orders-desc = House rule M3: this turn's orders (units not named Advance)
discord-opt-orders = orders
discord-opt-orders-desc = e.g. tac1 assault, asl1 aimed; left empty: every unit Advances
discord-cmd-reserve = reserve
discord-cmd-reserve-desc = House rule M5: hold a unit back in reserve instead of deploying it
discord-opt-reserve-transport = transport
discord-opt-reserve-transport-desc = A transport also held back, to wait inside it
discord-opt-charge-to = charge-to
discord-opt-charge-to-desc = House rule M8: charge the target from this cell next to it (2D6 reach)
discord-opt-fall-back = fall-back
discord-opt-fall-back-desc = House rule M6: leave melee without the morale test; no attack this turn

discord-charge-choice = { $cell } → { $target }: { $length } { $length ->
        [one] step
       *[other] steps
    }, { $percent }% to reach, { $damage } dmg expected
discord-charge-target = { $target } (charge: set charge-to)
discord-bad-orders = “{ $text }” is not a list of orders: type e.g. tac1 assault, asl1 aimed.
# The word an order is typed with in `/vl setup orders` (one the order language reads).
discord-order-word-assault = assault
discord-order-word-aimed_fire = aimed
