// Pure helpers for the board: colours, tile names, pasted rows. No DOM here.

export const COLOURS = ["B", "Y", "G"];
export const COLOUR_NAMES = { B: "grey", Y: "yellow", G: "green" };

// The game's squares (and its high-contrast ones: orange = green, blue = yellow).
const SQUARES = new Map([
  ["🟩", "G"], ["🟧", "G"],
  ["🟨", "Y"], ["🟦", "Y"],
  ["⬛", "B"], ["⬜", "B"], ["◼", "B"], ["◻", "B"],
]);
const DIGITS = { 2: "G", 1: "Y", 0: "B" };

// The capital a tile shows for a lower-case letter: one per letter (ß has the capital ẞ,
// where toUpperCase() makes it two).
export function displayLetter(letter) {
  return letter === "ß" ? "ẞ" : letter.toUpperCase();
}

export function displayWord(word) {
  return Array.from(word).map(displayLetter).join("");
}

// How the game's language spells what is typed: lower-cased, folded as its Wordle folds
// letters (French é -> e), then checked against its alphabet. `language` is the server's
// state.language; without it, English (a-z).
export function speller(language) {
  const alphabet = new Set(Array.from(language?.alphabet ?? "abcdefghijklmnopqrstuvwxyz"));
  const folds = language?.folds ?? {};
  // {word: the letters kept, refused: the first letter outside the alphabet or null}.
  // Anything that is not a letter (digits, spaces) is dropped without a word.
  return (text) => {
    let word = "";
    let refused = null;
    for (const char of Array.from(text.normalize("NFC").toLowerCase())) {
      for (const letter of Array.from(folds[char] ?? char)) {
        if (alphabet.has(letter)) word += letter;
        else if (refused === null && /\p{L}/u.test(letter)) refused = letter;
      }
    }
    return { word, refused };
  };
}

// The message for a letter the game's language does not have.
export function refusal(letter, language) {
  const name = language?.name ?? "English";
  const letters = language?.alphabet_text ?? "a-z";
  return `${displayLetter(letter)} is not a letter of ${name}: type ${letters}`;
}

export function nextColour(colour) {
  return COLOURS[(COLOURS.indexOf(colour) + 1) % COLOURS.length];
}

export function tileName(letter, position, colour) {
  const shown = letter ? displayLetter(letter) : "empty";
  return `${shown}, letter ${position + 1}, ${COLOUR_NAMES[colour]}`;
}

// A row of squares ("🟩🟨⬛⬛⬛") or digits ("21000") as G/Y/B, or null if it is not one.
export function squaresRow(text) {
  const chars = Array.from(text.replace(/[\uFE0F\s]/g, ""));
  if (chars.length === 0) return null;
  let colours = "";
  for (const char of chars) {
    if (SQUARES.has(char)) colours += SQUARES.get(char);
    else if (char in DIGITS) colours += DIGITS[char];
    else return null;
  }
  return colours;
}

// Colours in any notation the host takes: squares, digits or G/Y/B letters.
export function anyColours(text) {
  const squares = squaresRow(text);
  if (squares !== null) return squares;
  const letters = text.trim().toUpperCase();
  return /^[GYB]+$/.test(letters) ? letters : null;
}

// What a paste means for the board, given the guesses already played:
//   {word, colours}  a played line ("crane gybbb", "crane 🟩🟨⬛⬛⬛")
//   {colours}        a row of squares, or the game's shared grid (its row for this guess)
//   {word}           letters only
//   {error}          a grid without a row for this guess
//   null             nothing the board understands
// `spell` is the game's speller (English by default): a word is letters it keeps whole.
export function parsePaste(text, played, length, spell = speller()) {
  const asWord = (part) => {
    const { word, refused } = spell(part);
    return refused === null && /^\p{L}+$/u.test(part) ? word : null;
  };
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  if (lines.length === 1) {
    const parts = lines[0].split(/[\s:=,]+/).filter(Boolean);
    const word = parts.length <= 2 ? asWord(parts[0] ?? "") : null;
    if (parts.length === 2 && word) {
      const colours = anyColours(parts[1]);
      if (colours !== null && colours.length === word.length) return { word, colours };
    }
    if (parts.length === 1 && word && word.length <= length) return { word };
  }
  const rows = lines.map(squaresRow).filter((row) => row !== null && row.length === length);
  if (rows.length === 0) return null;
  if (rows.length === 1) return { colours: rows[0] };
  if (played >= rows.length) {
    return { error: `the pasted grid has ${rows.length} rows: none for guess ${played + 1}` };
  }
  return { colours: rows[played] };
}

// The best colour each letter has shown so far (for the on-screen keyboard).
export function letterStates(history) {
  const rank = { B: 0, Y: 1, G: 2 };
  const states = {};
  for (const { word, colours } of history) {
    Array.from(word).forEach((letter, i) => {
      const colour = colours[i];
      if (!(letter in states) || rank[colour] > rank[states[letter]]) states[letter] = colour;
    });
  }
  return states;
}
