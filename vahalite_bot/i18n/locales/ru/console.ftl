# Игра в терминале (vahalite_bot/console): подсказки, поле, рассказ о событиях со всеми кубиками.
# $side в сообщениях с выбором — значение стороны: south или north.

## Запуск, сохранение, режимы

console-welcome = Ваха-Лайт — игра в терминале.
console-lang-hint = Язык — русский. For English, start with --lang en (e.g. { $command }).
console-mode-hotseat = Играют двое за одним компьютером: в приглашении видно, чья очередь отдавать приказы.
console-mode-vs = Вы играете за Юг; за Север — автоматический игрок: { $player }.
console-player-name = { $name ->
        [greedy] жадный (выбирает самую выгодную атаку и ход)
        [random] случайный (любой разрешённый приказ)
       *[none] нет, играют двое
    }
console-quit-hint = «помощь» — все приказы; «выход» — сохранить партию и выйти (продолжить можно той же командой).
console-created = Партия №{ $game } на { $points } очков. Хеш зерна кубиков (проверка честности после игры): { $commitment }
console-resumed = Продолжаем партию №{ $game }.
console-resumed-mode = Режим этой партии сохранён — автоматический игрок: { $player }. Другой режим — в новой партии (--new).
console-abandoned = Неоконченная партия №{ $game } закрыта без результата (--new).
console-saved = Партия №{ $game } сохранена. Чтобы продолжить, запустите ту же команду снова.
console-play-again = Новая партия — при следующем запуске.
console-picture = Картинка поля: { $path }
console-seed = Зерно кубиков: { $seed } (его хеш был объявлен в начале: { $commitment }) — любой бросок партии можно проверить.
console-help-extra = «выход» — сохранить партию и выйти. Несколько приказов в одной строке разделяйте «;».
console-auto-declines-undo = Автоматический игрок не соглашается отменять действия, где уже бросались кубики.
console-undo-consent = { $side ->
        [south] Юг
       *[north] Север
    }, { $asker ->
        [south] Юг
       *[north] Север
    } просит отменить действия, где бросались кубики. Согласны? (да/нет) >{" "}
console-log-undone = {" "}(отменено)
console-resign-confirm = { $side ->
        [south] Юг
       *[north] Север
    }, сдаться и закончить партию поражением? (да/нет) >{" "}
console-resign-kept = Партия продолжается.
console-handover = ── Передайте клавиатуру: { $side ->
        [south] ходит Юг
       *[north] ходит Север
    } ──

## The recap of everything since a player's last turn (present/recap.py, issue 11)

console-recap-title = ── С вашего прошлого хода ──
console-recap-nothing = Ничего не произошло.
# $units: the units destroyed, each as "handle (name)", comma-separated.
console-recap-destroyed = Уничтожены: { $units }.
# $before and $after: the sides holding the SP before and now.
console-recap-sp = СП { $cell }: { $before } → { $after }.
console-recap-vp = ПО: Юг { $south_before } → { $south_after }, Север { $north_before } → { $north_after }.
console-recap-picture = Весь ход на одной картинке: { $path }

## Приглашения

console-prompt-points = очки >{" "}
console-prompt-army = { $side }, армия >{" "}
console-prompt-paste = список >{" "}
console-prompt-setup = { $side } · { $phase } >{" "}
console-prompt-play = { $side } · раунд { $round }/{ $rounds } >{" "}

## Армии

console-points-question = На сколько очков играем? { $choices } (Enter — { $default }).
console-points-bad = Выберите одно из: { $choices }.
console-army-title = Армия { $side ->
        [south] Юга
       *[north] Севера
    }{ $auto ->
        [yes] {" "}(за неё играет автоматический игрок)
       *[no] {""}
    }: выберите фракцию.
console-army-how = Введите номер или название фракции — будет её готовый список на { $points } очков; «список» — вставить свой список армии.
console-army-unknown = Нет фракции «{ $text }»: введите номер от 1 до { $count }, название или «список».
console-army-no-ready = У фракции «{ $faction }» нет готового списка на { $points } очков: вставьте свой («список»).
console-army-confirm = Берём этот список? (Enter или «да» — да, «нет» — выбрать другой) >{" "}
console-paste-intro = Вставьте список армии, по отряду в строке, например «Капитан + Прыжковый ранец» или «Тактическое отделение + Плазмаган > Носорог» (очки в скобках можно не писать); закончите пустой строкой.
console-paste-bad = Список не прочитан:
console-army-rejected = Армия не по правилам:
console-army-accepted = Армия { $side ->
        [south] Юга
       *[north] Севера
    } принята: { $faction }, { $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    } из { $limit }.

## Что делать сейчас

console-hint-deploy-order = { $side } проиграл бросок и выбирает порядок расстановки: «первым» или «вторым» (второй видит, как расставился первый).
console-hint-terrain = { $side } ставит местность на своей половине (ряды { $rows }). Осталось: { $left }. Например: «{ $example }».
console-terrain-left = { $kind } ×{ $count }
console-example-terrain = { $kind ->
        [obstacle] препятствие
        [water] водоём
        [height] высота
        [cover] укрытие
       *[fortification] укрепление
    } { $cell }
console-hint-sp = { $side } ставит стратегические позиции (СП) на своей половине — не на краю поля, не на препятствии и не в воде; { $count ->
        [one] осталась { $count }
        [few] осталось { $count }
       *[many] осталось { $count }
    }. Например: «{ $example }».
console-example-sp = сп { $cell }
console-hint-deploy = { $side } расставляет отряды в рядах { $rows }. Не выставлены: { $units }. Например: «{ $example }».
console-example-deploy = поставь { $unit } { $cell }
console-hint-deploy-in = Чтобы начать в транспорте: «поставь { $unit } { $transport }».
console-hint-turn = { $side }: ваш ход, раунд { $round } из { $rounds }. Сначала движения, потом атаки. Например: «{ $unit } { $cell }» — идти, «{ $unit } > { $target }» — атаковать, «шансы { $unit } { $target }» — шансы атаки, «армия» — ваши отряды и оружие, «конец» — закончить ход.
console-hint-turn-short = { $side }: ваш ход, раунд { $round } из { $rounds }.

## Поле

# Not the letters Ю/С: a Cyrillic С on the board reads as column C (issue 12).
console-side-letter = { $side ->
        [south] ●
       *[north] ○
    }
console-side-auto = { $side } (автомат)
console-board-header-play = Раунд { $round } из { $rounds } · ход { $side ->
        [south] Юга
       *[north] Севера
    } · ПО сейчас: Юг { $south }, Север { $north }
console-board-header-setup = Подготовка: { $phase }{ $side ->
        [south] {" "}· очередь Юга
        [north] {" "}· очередь Севера
       *[none] {""}
    }
console-board-header-ended = Партия окончена
console-legend-terrain = ▲ высота · ♣3+ укрытие · ▣ укрепление · ≈ водоём · ▓ препятствие · ◆●/◆○ — СП (стратегическая позиция) и чья она
console-legend-units = ●/○ — отряд Юга/Севера, число — его HP (красное — повреждён), «+» — транспорт с десантом
console-board-passengers = В транспортах: { $list }
console-board-waiting = Ждёт, куда его поставит { $side ->
        [south] Юг
       *[north] Север
    }: { $unit } (из уничтоженного транспорта), на одну из клеток { $cells }

## События

console-unit-named = { $handle } ({ $name })
console-ev-rolled-off = Бросок за первый ход: { $die } → первым в каждом раунде ходит { $side }.
console-ev-deploy-order = { $side } решает: первым расставляется { $first }.
console-ev-terrain = { $side }: { $kind } на { $cell }.
console-ev-sp = { $side }: СП на { $cell }.
console-ev-deployed = { $unit } — на { $cell }.
console-ev-deployed-in = { $unit } — в { $transport } на { $cell }.
console-ev-setup-step = — Дальше: { $phase }, очередь { $side ->
        [south] Юга
       *[north] Севера
    } —
console-ev-turn-started = ══ Раунд { $round } из { $rounds }: ход { $side ->
        [south] Юга
       *[north] Севера
    } ══
console-ev-moved = { $unit }: { $path }.
console-ev-moved-carrying = { $unit }: { $path } (с десантом { $passenger }).
console-ev-embarked = { $unit } садится в { $transport }: { $path }.
console-ev-disembarked = { $unit } высаживается из { $transport } на { $cell }.
console-ev-attack = { $unit }{ $damaged ->
        [yes] {" "}(повреждённый профиль)
       *[no] {""}
    } { $kind ->
        [melee] атакует { $target } в рукопашной
        [artillery] бьёт из артиллерии по { $target }
       *[shooting] стреляет по { $target }
    }:
console-ev-weapon = { $weapon }{ $models ->
        [0] {""}
        [one] {" "}({ $models } модель)
        [few] {" "}({ $models } модели)
       *[many] {" "}({ $models } моделей)
    }: { $count } { $count ->
        [one] кубик
        [few] кубика
       *[many] кубиков
    }, { $possible ->
        [yes] нужно { $needed }+
       *[no] не пробить (нужно бы { $needed }+)
    } (защита { $defense } − сила { $strength }): { $dice } → { $successes } { $successes ->
        [one] успех
        [few] успеха
       *[many] успехов
    }
console-ev-weapon-cover = ; укрытие { $cover }+: переброс { $dice } → { $damage } { $damage ->
        [one] рана
        [few] раны
       *[many] ран
    }
console-ev-attack-total = Итого: { $target } −{ $damage } HP ({ $before } → { $after }).
console-ev-morale = Мораль { $unit } ({ $reason ->
        [half] потеряна половина HP
       *[leaving_melee] выход из рукопашной
    }): { $count } { $count ->
        [one] кубик
        [few] кубика
       *[many] кубиков
    }, каждый ниже { $threshold } — минус модель: { $dice } → { $lost ->
        [0] никто не бежит
        [one] минус { $lost } модель
        [few] минус { $lost } модели
       *[many] минус { $lost } моделей
    }, осталось { $hp } HP.
console-ev-passengers = { $unit } в подбитом { $transport }: { $count } { $count ->
        [one] кубик
        [few] кубика
       *[many] кубиков
    }, нужно { $needed }+ (защита { $defense } − сила { $strength }): { $dice } → { $damage } { $damage ->
        [one] рана
        [few] раны
       *[many] ран
    }, осталось { $hp } HP.
console-ev-destroyed = ✖ { $unit } { $cause ->
        [attack] уничтожен (это сделал { $by }).
        [morale] бежит с поля: уничтожен проверкой морали.
        [transport] погибает в подбитом транспорте.
        [no_room] погибает: из подбитого транспорта некуда выйти.
       *[other] уничтожен.
    }
console-ev-placement = { $unit } выбирается из подбитого транспорта: { $side ->
        [south] Юг
       *[north] Север
    } выбирает клетку — { $cells }. Например: «поставь { $handle } { $cell }».
console-ev-placed = { $unit } выходит на { $cell }.
console-ev-advance-offered = { $unit } может занять клетку { $cell }: «вперёд» — занять, «стой» — остаться.
console-advance-declined = (Следующий приказ отдан — { $unit } остаётся на месте, клетку не занимает.)
console-ev-advanced = { $unit } занимает { $cell }.
console-ev-stayed = { $unit } остаётся на { $cell }.
console-ev-captured = СП на { $cell } теперь { $side ->
        [south] у Юга
       *[north] у Севера
    } ({ $unit }).
console-ev-turn-ended = { $side } заканчивает ход.
console-ev-game-ended = ══ Партия окончена: { $result } ══
console-result-win = победа { $side ->
        [south] Юга
       *[north] Севера
    } ({ $reason ->
        [score] по очкам
        [annihilation] армия противника уничтожена
        [resignation] соперник сдался
        [forfeit] соперник пропустил слишком много ходов
        [referee] решение судьи
       *[other] { $reason }
    })
console-result-draw = ничья{ $reason ->
        [score] {" "}по очкам
        [referee] {" "}(решение судьи)
       *[other] {""}
    }
console-score-detail = { $side }: { $sp } СП × 2 + уничтожено отрядов: { $kills } + штабов, убитых штабом: { $hq } × 2 = { $vp } ПО.
console-final-score = Итоговый счёт: Юг { $south } ПО — Север { $north } ПО.
console-ev-game-started = Обе армии поданы (Юг — { $south } очк., Север — { $north } очк.): партия началась.
console-ev-undone = { $count ->
        [one] Отменено действие (запись { $seqs }).
        [few] Отменено { $count } действия (записи { $seqs }).
       *[many] Отменено { $count } действий (записи { $seqs }).
    }
console-ev-undo-requested = { $side ->
        [south] Юг
       *[north] Север
    } просит отменить { $count ->
        [one] последнее действие
       *[other] последние действия ({ $count })
    }.
console-ev-undo-declined = { $side ->
        [south] Югу
       *[north] Северу
    } отказано в отмене.
console-ev-pause-asked = { $pause ->
        [yes] { $side } просит приостановить партию: пауза начнётся, когда соперник согласится.
       *[no] { $side } просит продолжить партию: она продолжится, когда соперник согласится.
    }
console-ev-paused = Партия приостановлена: срок хода стоит.
console-ev-resumed = Партия продолжается.
console-ev-turn-missed = { $side } пропускает ход (подряд: { $count }).
console-ev-unit-placed = Судья ставит { $unit } на { $cell }.
console-ev-unit-removed = Судья убирает { $unit } с поля.
console-ev-hp-set = Судья меняет HP { $unit }: { $before } → { $after }.

## Статус, армия, шансы

console-unit-line = { $unit }: { $where }, { $hp }/{ $max } HP, { $models ->
        [one] { $models } модель
        [few] { $models } модели
       *[many] { $models } моделей
    }{ $done ->
        [none] {""}
       *[other] {" "}· в этот ход: { $done }
    }
console-unit-destroyed = { $unit }: уничтожен
console-where-embarked = в { $transport }
console-where-undeployed = не выставлен
console-unit-moved = ходил
console-unit-attacked = атаковал
console-unit-profile = { $type }, защита { $defense }, манёвр { $m }, мораль { $morale }, ран на модель { $wounds }
console-morale-fearless = бесстрашные (не проверяют)
console-morale-none = не проверяют (G3)
console-type-infantry = пехота
console-type-jump = прыжковая пехота
console-type-bike = байки
console-type-walker = шагоход
console-type-vehicle = техника
console-type-skimmer = скиммер
console-type-monster = монстр
console-type-flyer = летун
console-weapon-line = { $number }. { $weapon } — { $kind ->
        [melee] рукопашное
        [artillery] артиллерия
       *[shooting] стрелковое
    }, сила { $strength }, { $dice } { $dice ->
        [one] кубик
        [few] кубика
       *[many] кубиков
    }{ $per_model ->
        [yes] {" "}на модель
       *[no] {""}
    }, дальность { $reach }
console-odds-header = Шансы: { $unit } против { $target } ({ $hp } HP)
console-odds-weapon = { $weapon }: { $count } { $count ->
        [one] кубик
        [few] кубика
       *[many] кубиков
    }, { $possible ->
        [yes] нужно { $needed }+
       *[no] не пробить
    }{ $cover ->
        [0] {""}
       *[other] , укрытие { $cover }+
    }
console-odds-chance = { $damage } — { $percent }%
console-odds-distribution = Ран (вероятность): { $chances }
console-odds-summary = В среднем { $mean } ран; уничтожить цель — { $kill }%.
# K2: кубики, которые может проверить любой (docs/dice.md)
console-words = Слова, добавленные в зерно кубиков после публикации его хэша: юг «{ $south }», север «{ $north }».
console-log-dice = кубики (позиция=значение): { $dice }
console-verify-file = Журнал партии: { $path } (проверить может любой: python -m vahalite_bot.verify { $path })
