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

export function nextColour(colour) {
  return COLOURS[(COLOURS.indexOf(colour) + 1) % COLOURS.length];
}

export function tileName(letter, position, colour) {
  const shown = letter ? letter.toUpperCase() : "empty";
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
export function parsePaste(text, played, length) {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  if (lines.length === 1) {
    const parts = lines[0].split(/[\s:=,]+/).filter(Boolean);
    if (parts.length === 2 && /^[a-z]+$/i.test(parts[0])) {
      const colours = anyColours(parts[1]);
      if (colours !== null && colours.length === parts[0].length) {
        return { word: parts[0].toLowerCase(), colours };
      }
    }
    if (parts.length === 1 && /^[a-z]+$/i.test(parts[0]) && parts[0].length <= length) {
      return { word: parts[0].toLowerCase() };
    }
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
