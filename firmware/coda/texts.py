"""Every text of the on-screen Coda game (`firmware.coda.app`), in English, Spanish, Portuguese
and Italian.

They live here rather than in the gettext catalogs (`firmware/table/locale`), which are the OLED's:
the catalogs' tests hold every message to the OLED's width, and these are screen-wide. A `CodaTexts`
is a TypedDict, so mypy already refuses a language that lacks a key; a test checks that every
translation keeps the English placeholders.

The module is long by nature (the four languages, side by side, keep a translation beside its
English); it holds texts and nothing else.

Log lines and statuses name a player as a noun ("You", "Computer 1") and avoid verbs that agree
with it, so one template serves both the person and the computers.
"""

from __future__ import annotations

from typing import Final, TypedDict


class CodaTexts(TypedDict):
    """The texts of the app in one language; `{name}` placeholders are filled by `str.format`."""

    title: str
    basic: str
    advanced: str
    wins: str
    you: str
    computer: str
    easy: str
    hard: str
    expert: str
    master: str
    black: str
    white: str
    dash: str
    tile: str
    pool: str
    pile_black: str
    pile_white: str
    rows: str
    drawn: str
    out: str
    winner_mark: str
    legend: str
    value: str
    target: str
    misses: str
    log_title: str
    status_take: str
    status_arrange: str
    status_draw: str
    status_attack: str
    dash_hint: str
    status_again: str
    status_again_no_draw: str
    status_place_hidden: str
    status_place_up: str
    status_reveal: str
    status_waiting: str
    status_you_win: str
    status_other_wins: str
    status_won_next: str
    status_leave: str
    log_take: str
    log_draw: str
    log_attack: str
    right: str
    wrong: str
    log_stop: str
    log_timeout: str
    log_face_up: str
    log_reveal: str
    log_out: str
    log_winner: str
    log_new_game: str
    key_black: str
    key_white: str
    key_previous: str
    key_next: str
    key_value_up: str
    key_value_down: str
    key_dash: str
    key_take: str
    key_lay_out: str
    key_attack: str
    key_stop: str
    key_place: str
    key_reveal: str
    key_new_game: str
    key_help: str
    key_odds: str
    odds_title: str
    odds_line: str
    review_title: str
    review_line: str
    review_none: str
    key_quit: str
    key_close: str
    help_title: str
    seat_title: str
    seat_prompt: str
    help: str


ENGLISH: Final[CodaTexts] = {
    "title": "Coda",
    "basic": "basic game",
    "advanced": "advanced game, with dashes",
    "wins": "Wins: {tally}",
    "you": "You",
    "computer": "Computer {letter}",
    "easy": "easy",
    "hard": "hard",
    "expert": "expert",
    "master": "master",
    "black": "black",
    "white": "white",
    "dash": "dash",
    "tile": "{colour} {value}",
    "pool": "Pool",
    "pile_black": "black: {count}",
    "pile_white": "white: {count}",
    "rows": "Rows",
    "drawn": "drawn",
    "out": "out",
    "winner_mark": "winner",
    "legend": "┄ frame: your hidden tile, only you see it   ━ frame: face up   "
    "frame numbers: tile labels",
    "value": "Value",
    "target": "Target: {player}, tile {position} ({colour})",
    "misses": "not {values}",
    "log_title": "Attacks",
    "status_take": "Take your {count} tiles: b and w choose the colours "
    "({black} black, {white} white), ⏎ takes them",
    "status_arrange": "Lay out your row: ← → move your {colour} dash, ⏎ leaves it there",
    "status_draw": "Your turn: draw a tile, b black or w white (or click the pool)",
    "status_attack": "Attack: ← → a tile, 0–9 or ↑ ↓ a value (1 then 0/1 for 10/11{dash_hint}), ⏎",
    "dash_hint": ", - dash",
    "status_again": "Right! Attack again (⏎), or stop (s): your drawn tile then goes in hidden",
    "status_again_no_draw": "Right! Attack again (⏎), or stop (s)",
    "status_place_hidden": "Place your drawn tile {tile}: ← → choose where, ⏎ puts it there, "
    "hidden",
    "status_place_up": "Place your drawn tile {tile}: ← → choose where, ⏎ puts it there, face up",
    "status_reveal": "Wrong, and nothing is left to draw: choose one of your hidden tiles "
    "(← → or click), ⏎ turns it face up",
    "status_waiting": "Turn: {player}…",
    "status_you_win": "You win! n starts a new game, and you play first",
    "status_other_wins": "Winner: {player}. n starts a new game, and {player} plays first",
    "status_won_next": "Winner: {winner}. n starts a new game; first to play: {player}",
    "status_leave": "Game in play: q again leaves it, any other key plays on",
    "log_take": "{player}: opening tiles, {black} black and {white} white",
    "log_draw": "{player}: drawn tile, {colour}",
    "log_attack": "{attacker} → {target}, tile {position} ({colour}): {value}? {verdict}",
    "right": "right",
    "wrong": "wrong",
    "log_stop": "{player}: stop, end of turn",
    "log_timeout": "{player}: time is up",
    "log_face_up": "{player}: {tile} face up into the row",
    "log_reveal": "{player}: own tile {position} face up, {tile}",
    "log_out": "{player}: out of the game",
    "log_winner": "Winner: {player}",
    "log_new_game": "New game; first to play: {player}",
    "key_black": "black",
    "key_white": "white",
    "key_previous": "previous",
    "key_next": "next",
    "key_value_up": "value +",
    "key_value_down": "value −",
    "key_dash": "dash",
    "key_take": "take",
    "key_lay_out": "lay out",
    "key_attack": "attack",
    "key_stop": "stop",
    "key_place": "place",
    "key_reveal": "reveal",
    "key_new_game": "new game",
    "key_help": "help",
    "key_odds": "odds",
    "odds_title": "Odds (from what you can see)",
    "odds_line": "{player}, tile {position} ({colour}): {values} · likeliest {value} ({percent} %)",
    "review_title": "Your attacks that did not name the likeliest tile",
    "review_line": "{player}, tile {position}: {value}? ({percent} %)"
    " · the likeliest was {best_player}, tile {best_position}: {best_value} ({best_percent} %)",
    "review_none": "Each of your attacks named the likeliest tile.",
    "key_quit": "quit",
    "key_close": "close",
    "seat_title": "Your seat",
    "seat_prompt": "Choose your place in the order of play: 1 to {last}, or click a line "
    "(⏎ or Esc: you play first)",
    "help_title": "How to play Coda",
    "help": (
        "Everyone hides a row of numbered tiles, 0 to 11, black and white, in ascending "
        "order; of two equal numbers the black lies left. Break the other rows' codes by "
        "deduction.\n\n"
        "Your turn: draw a tile (b black, w white, or click the pool), then attack one hidden "
        "tile of a computer: choose it (← → or a click), name its value (digits: 1 then 0 or "
        "1 gives 10 and 11; ↑ ↓ step; in the advanced game - names the dash) and press ⏎. "
        "Right: the tile turns face up, and you attack again or stop (s); on a stop your "
        "drawn tile goes into your row hidden. Wrong: your drawn tile goes into your row face "
        "up and the turn ends. With nothing left to draw, a wrong attack makes you turn one "
        "of your own hidden tiles face up (← →, ⏎).\n\n"
        "In the advanced game each colour has a dash, which its owner puts anywhere in the "
        "row: choose its place with ← → and ⏎, at the start and whenever a tile goes into "
        "your row.\n\n"
        "A player whose tiles are all face up is out; the last one with a hidden tile wins "
        "and plays first in the next game (n). The target line lists the values already named "
        "in vain against the chosen tile.\n\n"
        "With --timer the optional time rule is played: an attack not made within a minute "
        "and 20 seconds counts as a wrong one (after a right attack, as a stop).\n\n"
        "Before the first move you choose your seat in the order of play (1 plays first). "
        "With --rotate each new game is started by the next player in order rather than by "
        "the winner.\n\n"
        "o shows or hides the odds: for each hidden tile of the computers, the values it can "
        "still have and the likeliest, from what you can see. After a game, the same place "
        "lists your attacks that did not name the likeliest tile.\n\n"
        "Esc closes this help."
    ),
}

SPANISH: Final[CodaTexts] = {
    "title": "Coda",
    "basic": "juego básico",
    "advanced": "juego avanzado, con guiones",
    "wins": "Victorias: {tally}",
    "you": "Tú",
    "computer": "Ordenador {letter}",
    "easy": "fácil",
    "hard": "difícil",
    "expert": "experto",
    "master": "maestro",
    "black": "negra",
    "white": "blanca",
    "dash": "guion",
    "tile": "{value} {colour}",
    "pool": "Reserva",
    "pile_black": "negras: {count}",
    "pile_white": "blancas: {count}",
    "rows": "Filas",
    "drawn": "robada",
    "out": "fuera",
    "winner_mark": "gana",
    "legend": "marco ┄: tu ficha oculta, solo tú la ves   marco ━: boca arriba   "
    "números del marco: etiquetas",
    "value": "Valor",
    "target": "Objetivo: {player}, ficha {position} ({colour})",
    "misses": "no es {values}",
    "log_title": "Ataques",
    "status_take": "Toma tus {count} fichas: b y w eligen los colores "
    "({black} negras, {white} blancas), ⏎ las toma",
    "status_arrange": "Coloca tu fila: ← → mueven tu guion ({colour}), ⏎ lo deja ahí",
    "status_draw": "Tu turno: roba una ficha, b negra o w blanca (o haz clic en la reserva)",
    "status_attack": "Ataca: ← → una ficha, 0–9 o ↑ ↓ un valor (1 y 0/1 para 10/11{dash_hint}), ⏎",
    "dash_hint": ", - guion",
    "status_again": "¡Acierto! Ataca otra vez (⏎) o plántate (s): tu ficha robada entra oculta",
    "status_again_no_draw": "¡Acierto! Ataca otra vez (⏎) o plántate (s)",
    "status_place_hidden": "Coloca tu ficha robada {tile}: ← → eligen dónde, ⏎ la pone, oculta",
    "status_place_up": "Coloca tu ficha robada {tile}: ← → eligen dónde, ⏎ la pone, boca arriba",
    "status_reveal": "Fallo, y no quedan fichas que robar: elige una de tus fichas ocultas "
    "(← → o clic), ⏎ la pone boca arriba",
    "status_waiting": "Turno: {player}…",
    "status_you_win": "¡Ganas! n empieza una partida nueva, y juegas primero",
    "status_other_wins": "Ganador: {player}. n empieza una partida nueva, y {player} juega primero",
    "status_won_next": "Ganador: {winner}. n empieza una partida nueva; primero en jugar: {player}",
    "status_leave": "Partida en curso: q otra vez para salir; cualquier otra tecla para seguir",
    "log_take": "{player}: fichas iniciales, {black} negras y {white} blancas",
    "log_draw": "{player}: ficha robada, {colour}",
    "log_attack": "{attacker} → {target}, ficha {position} ({colour}): ¿{value}? {verdict}",
    "right": "acierto",
    "wrong": "fallo",
    "log_stop": "{player}: se planta, fin del turno",
    "log_timeout": "{player}: se acabó el tiempo",
    "log_face_up": "{player}: {tile} boca arriba en la fila",
    "log_reveal": "{player}: ficha propia {position} boca arriba, {tile}",
    "log_out": "{player}: fuera del juego",
    "log_winner": "Ganador: {player}",
    "log_new_game": "Partida nueva; primero en jugar: {player}",
    "key_black": "negra",
    "key_white": "blanca",
    "key_previous": "anterior",
    "key_next": "siguiente",
    "key_value_up": "valor +",
    "key_value_down": "valor −",
    "key_dash": "guion",
    "key_take": "tomar",
    "key_lay_out": "colocar",
    "key_attack": "atacar",
    "key_stop": "plantarse",
    "key_place": "colocar",
    "key_reveal": "descubrir",
    "key_new_game": "nueva partida",
    "key_help": "ayuda",
    "key_odds": "probabilidades",
    "odds_title": "Probabilidades (según lo que ves)",
    "odds_line": "{player}, ficha {position} ({colour}): {values}"
    " · la más probable {value} ({percent} %)",
    "review_title": "Tus ataques que no nombraron la ficha más probable",
    "review_line": "{player}, ficha {position}: ¿{value}? ({percent} %)"
    " · la más probable era {best_player}, ficha {best_position}: {best_value} ({best_percent} %)",
    "review_none": "Cada uno de tus ataques nombró la ficha más probable.",
    "key_quit": "salir",
    "key_close": "cerrar",
    "seat_title": "Tu puesto",
    "seat_prompt": "Elige tu puesto en el orden de juego: del 1 al {last}, o haz clic en una "
    "línea (⏎ o Esc: juegas primero)",
    "help_title": "Cómo se juega a Coda",
    "help": (
        "Cada jugador esconde una fila de fichas numeradas, del 0 al 11, negras y blancas, en "
        "orden ascendente; de dos números iguales, la negra va a la izquierda. Descifra las "
        "otras filas deduciendo.\n\n"
        "Tu turno: roba una ficha (b negra, w blanca, o clic en la reserva) y ataca una ficha "
        "oculta de una máquina: elígela (← → o un clic), di su valor (cifras: 1 y luego 0 o 1 "
        "da 10 y 11; ↑ ↓ de uno en uno; en el juego avanzado, - nombra el guion) y pulsa ⏎. "
        "Acierto: la ficha se pone boca arriba, y atacas otra vez o te plantas (s); al "
        "plantarte, tu ficha robada entra oculta en tu fila. Fallo: tu ficha robada entra "
        "boca arriba y el turno acaba. Sin fichas que robar, un fallo te obliga a poner boca "
        "arriba una de tus fichas ocultas (← →, ⏎).\n\n"
        "En el juego avanzado cada color tiene un guion, que su dueño pone donde quiera en su "
        "fila: elige su sitio con ← → y ⏎, al empezar y cada vez que una ficha entra en tu "
        "fila.\n\n"
        "Quien tiene todas sus fichas boca arriba queda fuera; el último con una ficha oculta "
        "gana y juega primero en la partida siguiente (n). La línea del objetivo muestra los "
        "valores ya fallados contra la ficha elegida.\n\n"
        "Con --timer se juega la regla opcional del tiempo: un ataque que no se hace en un "
        "minuto y 20 segundos cuenta como un fallo (tras un acierto, como plantarse).\n\n"
        "Antes de la primera jugada eliges tu puesto en el orden de juego (el 1 juega "
        "primero). Con --rotate cada partida nueva la empieza el jugador siguiente en el "
        "orden, no el ganador.\n\n"
        "o muestra u oculta las probabilidades: para cada ficha oculta de los ordenadores, los "
        "valores que aún puede tener y el más probable, según lo que ves. Al terminar una "
        "partida, ahí mismo aparecen tus ataques que no nombraron la ficha más probable.\n\n"
        "Esc cierra esta ayuda."
    ),
}

PORTUGUESE: Final[CodaTexts] = {
    "title": "Coda",
    "basic": "jogo básico",
    "advanced": "jogo avançado, com traços",
    "wins": "Vitórias: {tally}",
    "you": "Tu",
    "computer": "Computador {letter}",
    "easy": "fácil",
    "hard": "difícil",
    "expert": "perito",
    "master": "mestre",
    "black": "preta",
    "white": "branca",
    "dash": "traço",
    "tile": "{value} {colour}",
    "pool": "Reserva",
    "pile_black": "pretas: {count}",
    "pile_white": "brancas: {count}",
    "rows": "Filas",
    "drawn": "tirada",
    "out": "fora",
    "winner_mark": "vence",
    "legend": "moldura ┄: a tua peça oculta, só tu a vês   moldura ━: virada para cima   "
    "números da moldura: rótulos",
    "value": "Valor",
    "target": "Alvo: {player}, peça {position} ({colour})",
    "misses": "não é {values}",
    "log_title": "Ataques",
    "status_take": "Tira as tuas {count} peças: b e w escolhem as cores "
    "({black} pretas, {white} brancas), ⏎ tira-as",
    "status_arrange": "Dispõe a tua fila: ← → movem o teu traço ({colour}), ⏎ deixa-o aí",
    "status_draw": "A tua vez: tira uma peça, b preta ou w branca (ou carrega na reserva)",
    "status_attack": "Ataca: ← → uma peça, 0–9 ou ↑ ↓ um valor (1 e 0/1 para 10/11{dash_hint}), ⏎",
    "dash_hint": ", - traço",
    "status_again": "Acertaste! Ataca de novo (⏎) ou para (s): a tua peça tirada entra oculta",
    "status_again_no_draw": "Acertaste! Ataca de novo (⏎) ou para (s)",
    "status_place_hidden": "Coloca a tua peça tirada {tile}: ← → escolhem onde, ⏎ põe-na aí, "
    "oculta",
    "status_place_up": "Coloca a tua peça tirada {tile}: ← → escolhem onde, ⏎ põe-na aí, "
    "virada para cima",
    "status_reveal": "Erraste, e não há mais peças para tirar: escolhe uma das tuas peças "
    "ocultas (← → ou carrega nela), ⏎ vira-a para cima",
    "status_waiting": "Turno: {player}…",
    "status_you_win": "Venceste! n começa uma partida nova, e jogas primeiro",
    "status_other_wins": "Vencedor: {player}. n começa uma partida nova, e {player} joga primeiro",
    "status_won_next": "Vencedor: {winner}. n começa uma partida nova; primeiro a jogar: {player}",
    "status_leave": (
        "Partida em curso: q outra vez para sair; qualquer outra tecla para continuar"
    ),
    "log_take": "{player}: peças iniciais, {black} pretas e {white} brancas",
    "log_draw": "{player}: peça tirada, {colour}",
    "log_attack": "{attacker} → {target}, peça {position} ({colour}): {value}? {verdict}",
    "right": "acerto",
    "wrong": "erro",
    "log_stop": "{player}: para, fim do turno",
    "log_timeout": "{player}: tempo esgotado",
    "log_face_up": "{player}: {tile} virada para cima na fila",
    "log_reveal": "{player}: peça própria {position} virada para cima, {tile}",
    "log_out": "{player}: fora do jogo",
    "log_winner": "Vencedor: {player}",
    "log_new_game": "Partida nova; primeiro a jogar: {player}",
    "key_black": "preta",
    "key_white": "branca",
    "key_previous": "anterior",
    "key_next": "seguinte",
    "key_value_up": "valor +",
    "key_value_down": "valor −",
    "key_dash": "traço",
    "key_take": "tirar",
    "key_lay_out": "dispor",
    "key_attack": "atacar",
    "key_stop": "parar",
    "key_place": "colocar",
    "key_reveal": "revelar",
    "key_new_game": "nova partida",
    "key_help": "ajuda",
    "key_odds": "probabilidades",
    "odds_title": "Probabilidades (pelo que vês)",
    "odds_line": "{player}, peça {position} ({colour}): {values}"
    " · a mais provável {value} ({percent} %)",
    "review_title": "Os teus ataques que não nomearam a peça mais provável",
    "review_line": "{player}, peça {position}: {value}? ({percent} %)"
    " · a mais provável era {best_player}, peça {best_position}: {best_value} ({best_percent} %)",
    "review_none": "Cada um dos teus ataques nomeou a peça mais provável.",
    "key_quit": "sair",
    "key_close": "fechar",
    "seat_title": "O teu lugar",
    "seat_prompt": "Escolhe o teu lugar na ordem de jogo: de 1 a {last}, ou carrega numa "
    "linha (⏎ ou Esc: jogas primeiro)",
    "help_title": "Como jogar Coda",
    "help": (
        "Cada jogador esconde uma fila de peças numeradas, de 0 a 11, pretas e brancas, por "
        "ordem crescente; de dois números iguais, a preta fica à esquerda. Decifra as outras "
        "filas por dedução.\n\n"
        "Na tua vez: tira uma peça (b preta, w branca, ou carrega na reserva) e ataca uma peça "
        "oculta de um computador: escolhe-a (← → ou carrega nela), diz o valor (algarismos: 1 e "
        "depois 0 ou 1 dá 10 e 11; ↑ ↓ de um em um; no jogo avançado, - nomeia o traço) e "
        "prime ⏎. Acerto: a peça é virada para cima, e atacas de novo ou paras (s); ao "
        "parares, a tua peça tirada entra oculta na fila. Erro: a tua peça tirada entra virada "
        "para cima e o turno acaba. Sem peças para tirar, um erro obriga-te a virar para "
        "cima uma das tuas peças ocultas (← →, ⏎).\n\n"
        "No jogo avançado cada cor tem um traço, que o dono põe onde quiser na fila: escolhe "
        "o lugar com ← → e ⏎, no início e sempre que uma peça entra na tua fila.\n\n"
        "Quem tem todas as peças viradas para cima está fora; o último com uma peça oculta "
        "vence e joga primeiro na partida seguinte (n). A linha do alvo mostra os valores já "
        "errados contra a peça escolhida.\n\n"
        "Com --timer joga-se a regra opcional do tempo: um ataque não feito num minuto e 20 "
        "segundos conta como um erro (depois de um acerto, como parar).\n\n"
        "Antes da primeira jogada escolhes o teu lugar na ordem de jogo (o 1 joga "
        "primeiro). Com --rotate quem começa cada partida nova é o jogador seguinte na "
        "ordem, e não o vencedor.\n\n"
        "o mostra ou esconde as probabilidades: para cada peça oculta dos computadores, os "
        "valores que ainda pode ter e o mais provável, pelo que vês. No fim de uma partida, "
        "no mesmo sítio aparecem os teus ataques que não nomearam a peça mais provável.\n\n"
        "Esc fecha esta ajuda."
    ),
}

ITALIAN: Final[CodaTexts] = {
    "title": "Coda",
    "basic": "gioco base",
    "advanced": "gioco avanzato, con i trattini",
    "wins": "Vittorie: {tally}",
    "you": "Tu",
    "computer": "Computer {letter}",
    "easy": "facile",
    "hard": "difficile",
    "expert": "esperto",
    "master": "maestro",
    "black": "nera",
    "white": "bianca",
    "dash": "trattino",
    "tile": "{value} {colour}",
    "pool": "Riserva",
    "pile_black": "nere: {count}",
    "pile_white": "bianche: {count}",
    "rows": "File",
    "drawn": "pescata",
    "out": "fuori",
    "winner_mark": "vince",
    "legend": "cornice ┄: tua tessera coperta, solo tu la vedi   cornice ━: scoperta   "
    "numeri della cornice: etichette",
    "value": "Valore",
    "target": "Bersaglio: {player}, tessera {position} ({colour})",
    "misses": "non è {values}",
    "log_title": "Attacchi",
    "status_take": "Prendi le tue {count} tessere: b e w scelgono i colori "
    "({black} nere, {white} bianche), ⏎ le prende",
    "status_arrange": "Disponi la tua fila: ← → spostano il tuo trattino ({colour}), "
    "⏎ lo lascia lì",
    "status_draw": "Tocca a te: pesca una tessera, b nera o w bianca (o clic sulla riserva)",
    "status_attack": "Attacca: ← → una tessera, 0–9 o ↑ ↓ un valore "
    "(1 e 0/1 per 10/11{dash_hint}), ⏎",
    "dash_hint": ", - trattino",
    "status_again": "Giusto! Attacca ancora (⏎) o fermati (s): la tessera pescata entra coperta",
    "status_again_no_draw": "Giusto! Attacca ancora (⏎) o fermati (s)",
    "status_place_hidden": "Metti la tessera pescata {tile}: ← → scelgono dove, ⏎ la mette, "
    "coperta",
    "status_place_up": "Metti la tessera pescata {tile}: ← → scelgono dove, ⏎ la mette, scoperta",
    "status_reveal": "Sbagliato, e non resta nulla da pescare: scegli una delle tue tessere "
    "coperte (← → o clic), ⏎ la scopre",
    "status_waiting": "Turno: {player}…",
    "status_you_win": "Hai vinto! n inizia una partita nuova, e giochi per primo",
    "status_other_wins": "Vincitore: {player}. n inizia una partita nuova, "
    "e {player} gioca per primo",
    "status_won_next": "Vincitore: {winner}. n inizia una partita nuova; primo a giocare: {player}",
    "status_leave": (
        "Partita in corso: premi di nuovo q per uscire, qualsiasi altro tasto per continuare"
    ),
    "log_take": "{player}: tessere iniziali, {black} nere e {white} bianche",
    "log_draw": "{player}: tessera pescata, {colour}",
    "log_attack": "{attacker} → {target}, tessera {position} ({colour}): {value}? {verdict}",
    "right": "giusto",
    "wrong": "sbagliato",
    "log_stop": "{player}: si ferma, fine del turno",
    "log_timeout": "{player}: tempo scaduto",
    "log_face_up": "{player}: {tile} scoperta nella fila",
    "log_reveal": "{player}: tessera propria {position} scoperta, {tile}",
    "log_out": "{player}: fuori dal gioco",
    "log_winner": "Vincitore: {player}",
    "log_new_game": "Partita nuova; primo a giocare: {player}",
    "key_black": "nera",
    "key_white": "bianca",
    "key_previous": "precedente",
    "key_next": "successiva",
    "key_value_up": "valore +",
    "key_value_down": "valore −",
    "key_dash": "trattino",
    "key_take": "prendi",
    "key_lay_out": "disponi",
    "key_attack": "attacca",
    "key_stop": "fermati",
    "key_place": "metti",
    "key_reveal": "scopri",
    "key_new_game": "nuova partita",
    "key_help": "aiuto",
    "key_odds": "probabilità",
    "odds_title": "Probabilità (da ciò che vedi)",
    "odds_line": "{player}, tessera {position} ({colour}): {values}"
    " · la più probabile {value} ({percent} %)",
    "review_title": "I tuoi attacchi che non hanno nominato la tessera più probabile",
    "review_line": "{player}, tessera {position}: {value}? ({percent} %)"
    " · la più probabile era {best_player}, tessera {best_position}: "
    "{best_value} ({best_percent} %)",
    "review_none": "Ognuno dei tuoi attacchi ha nominato la tessera più probabile.",
    "key_quit": "esci",
    "key_close": "chiudi",
    "seat_title": "Il tuo posto",
    "seat_prompt": "Scegli il tuo posto nell'ordine di gioco: da 1 a {last}, o fai clic su "
    "una riga (⏎ o Esc: giochi per primo)",
    "help_title": "Come si gioca a Coda",
    "help": (
        "Ognuno nasconde una fila di tessere numerate, da 0 a 11, nere e bianche, in ordine "
        "crescente; di due numeri uguali la nera sta a sinistra. Decifra le altre file per "
        "deduzione.\n\n"
        "Al tuo turno: pesca una tessera (b nera, w bianca, o clic sulla riserva), poi "
        "attacca una tessera coperta di un computer: sceglila (← → o un clic), di' il suo "
        "valore (cifre: 1 poi 0 o 1 dà 10 e 11; ↑ ↓ di uno in uno; nel gioco avanzato - "
        "nomina il trattino) e premi ⏎. Giusto: la tessera viene scoperta, e attacchi ancora "
        "o ti fermi (s); fermandoti, la tessera pescata entra coperta nella tua fila. "
        "Sbagliato: la tessera pescata entra scoperta e il turno finisce. Senza nulla da "
        "pescare, un errore ti fa scoprire una delle tue tessere coperte (← →, ⏎).\n\n"
        "Nel gioco avanzato ogni colore ha un trattino, che il proprietario mette dove vuole "
        "nella fila: scegli il posto con ← → e ⏎, all'inizio e ogni volta che una tessera "
        "entra nella tua fila.\n\n"
        "Chi ha tutte le tessere scoperte è fuori; l'ultimo con una tessera coperta vince e "
        "gioca per primo nella partita seguente (n). La riga del bersaglio mostra i valori "
        "già sbagliati contro la tessera scelta.\n\n"
        "Con --timer si gioca la regola facoltativa del tempo: un attacco non fatto entro un "
        "minuto e 20 secondi conta come un errore (dopo un attacco giusto, come fermarsi).\n\n"
        "Prima di iniziare scegli il tuo posto nell'ordine di gioco (l'1 gioca per primo). "
        "Con --rotate a iniziare ogni partita nuova è il giocatore successivo "
        "nell'ordine, non il vincitore.\n\n"
        "o mostra o nasconde le probabilità: per ogni tessera coperta dei computer, i valori "
        "che può ancora avere e il più probabile, da ciò che vedi. A fine partita, nello "
        "stesso punto compaiono i tuoi attacchi che non hanno nominato la tessera più "
        "probabile.\n\n"
        "Esc chiude questo aiuto."
    ),
}

TEXTS: Final[dict[str, CodaTexts]] = {
    "en": ENGLISH,
    "es": SPANISH,
    "pt": PORTUGUESE,
    "it": ITALIAN,
}
"""The texts of each language, by the same codes as `firmware.table.i18n.LANGUAGES`."""


def coda_texts(language: str) -> CodaTexts:
    """The texts of `language`; raises `KeyError` naming the language if there are none."""
    try:
        return TEXTS[language]
    except KeyError:
        raise KeyError(
            f"no Coda texts in {language!r}: expected one of {', '.join(TEXTS)}"
        ) from None
