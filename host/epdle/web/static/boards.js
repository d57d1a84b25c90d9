// A game of several boards (Dordle, Quordle, Octordle): the boards side by side, each
// with its guesses, its state and its own row of tiles for the guess being typed; the
// suggestions with the boards each may solve. app.js hands over to these when the
// server's state has `boards` above 1.
import { COLOUR_NAMES, anyColours, displayLetter, displayWord, nextColour } from "./board.js";
import { fillSuggestions, setColumns } from "./suggestions.js";

const $ = (selector) => document.querySelector(selector);
const HELP = "Type the word you played, then click or tap each board's tiles until they show "
  + "that board's colours (Space on a tile), then Enter. You can also type the line, such as "
  + "“crane gybbb/bbbbb/-/ggyyb”: one group of colours a board, in order, - for a board "
  + "already solved (the open boards' alone will do).";

let colours = []; // per board, the colours of the guess being typed
let drawn = null; // {state, word, submit}: what the boards were last drawn from

export function isMulti(state) {
  return Boolean(state && state.boards > 1);
}

function openBoards(state) {
  return state.board_states.map((board) => board.solved_in === null);
}

export function resetBoardsColours(state) {
  colours = state.board_states.map(() => Array.from({ length: state.length }, () => "B"));
}

// The colours to send: one group per board, "-" for a solved board.
export function boardsColoursLine(state) {
  return openBoards(state)
    .map((open, board) => (open ? colours[board].join("") : "-"))
    .join("/");
}

// Colours typed or pasted as "gybbb/bbbbb/-/21000" (every board's, or the open boards'
// alone): each board's (null for a solved one), or null if the tiles cannot take them.
export function readBoardsColours(text, state) {
  const groups = text.split("/").map((group) => group.trim());
  const open = openBoards(state);
  const openCount = open.filter(Boolean).length;
  let given;
  if (groups.length === open.length) given = groups;
  else if (groups.length === openCount) {
    const queue = [...groups];
    given = open.map((isOpen) => (isOpen ? queue.shift() : "-"));
  } else return null;
  const parsed = given.map((group, board) => (open[board] ? anyColours(group) : null));
  const whole = parsed.every((marks, board) => !open[board] || marks?.length === state.length);
  return whole ? parsed : null;
}

// The tiles take colours typed or pasted (see readBoardsColours), if they can.
export function takeBoardsColours(text, state) {
  readBoardsColours(text, state)?.forEach((marks, board) => {
    if (marks !== null) colours[board] = Array.from(marks);
  });
}

function boardSummary(board) {
  if (board.solved_in !== null) return `solved in ${board.solved_in}`;
  const left = board.candidates_left;
  return `${left} word${left === 1 ? "" : "s"} left`;
}

function tile(letter, colour) {
  const element = document.createElement("span");
  element.className = `tile ${colour ? `c-${colour}` : "empty"}`;
  element.textContent = letter ? displayLetter(letter) : "";
  element.setAttribute("aria-hidden", "true");
  return element;
}

function playedRows(state, board) {
  const list = document.createElement("ol");
  list.className = "board";
  state.history.forEach(({ word, colours: marks }, turn) => {
    const feedback = marks[board];
    if (feedback === null) return; // solved by an earlier guess
    const row = document.createElement("li");
    row.className = "row";
    const said = Array.from(word)
      .map((letter, i) => `${displayLetter(letter)} ${COLOUR_NAMES[feedback[i]]}`)
      .join(", ");
    row.setAttribute("aria-label", `Board ${board + 1}, guess ${turn + 1}: ${said}`);
    Array.from(word).forEach((letter, i) => row.append(tile(letter, feedback[i])));
    list.append(row);
  });
  return list;
}

function currentRow(state, board, word) {
  const row = document.createElement("div");
  row.className = "row current";
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", `Board ${board + 1}: colours of this guess`);
  const letters = Array.from(word);
  for (let i = 0; i < state.length; i += 1) {
    const colour = colours[board][i];
    const letter = letters[i] || "";
    const button = document.createElement("button");
    button.type = "button";
    button.className = `tile ${letter ? `c-${colour}` : `empty c-${colour}`}`;
    button.textContent = letter ? displayLetter(letter) : "";
    const shown = letter ? displayLetter(letter) : "empty";
    button.setAttribute("aria-label", `Board ${board + 1}: ${shown}, letter ${i + 1}, ${COLOUR_NAMES[colour]}`);
    button.addEventListener("click", () => {
      colours[board][i] = nextColour(colour);
      redraw();
    });
    button.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { // Space changes the colour; Enter plays
        event.preventDefault();
        drawn.submit();
      }
    });
    row.append(button);
  }
  return row;
}

// The boards side by side: each with its guesses, its state, and (open, game not over)
// its tiles for the word being typed; `submit` plays the guess (Enter on a tile).
export function renderBoards(state, word, submit) {
  drawn = { state, word, submit };
  const container = $("#boards");
  if (colours.length !== state.boards || colours[0].length !== state.length) resetBoardsColours(state);
  const buttons = () => Array.from(container.querySelectorAll("button"));
  const focused = buttons().indexOf(document.activeElement);
  container.hidden = false;
  $("#help").textContent = HELP;
  container.style.setProperty("--columns", String(Math.min(state.boards, 8)));
  container.style.setProperty("--phone-columns", "2"); // as the games lay them out on a phone
  container.style.setProperty("--length", String(state.length));
  const over = state.solved || state.lost;
  container.replaceChildren(...state.board_states.map((board, index) => {
    const section = document.createElement("section");
    section.className = `one-board${board.solved_in !== null ? " solved" : ""}`;
    const summary = boardSummary(board);
    section.setAttribute("aria-label", `Board ${index + 1}: ${summary}`);
    const heading = document.createElement("h3");
    heading.textContent = `${index + 1} · ${summary}`;
    section.append(heading, playedRows(state, index));
    if (board.solved_in === null && !over) section.append(currentRow(state, index, word));
    if (board.solved_in === null && board.candidates_left <= 3) {
      const likely = document.createElement("p");
      likely.className = "likely";
      likely.textContent = board.candidates.map(displayWord).join(" ");
      section.append(likely);
    }
    return section;
  }));
  if (focused >= 0) buttons()[Math.min(focused, buttons().length - 1)]?.focus();
}

function redraw() {
  if (drawn) renderBoards(drawn.state, drawn.word, drawn.submit);
}

export function hideBoards() {
  $("#boards").hidden = true;
}

// The advice: guesses left and open boards, the suggestions (the boards each may solve),
// and each open board's candidates.
export function drawBoardsAdvice(state, useWord) {
  const played = state.history.length;
  const open = state.board_states.filter((board) => board.solved_in === null);
  if (state.solved) {
    $("#left").textContent = `All ${state.boards} boards solved in ${played}! Press “New game” for another.`;
  } else if (state.lost) {
    const left = state.board_states
      .map((board, index) => ({ board, index }))
      .filter(({ board }) => board.solved_in === null)
      .map(({ board, index }) => `board ${index + 1}: ${board.candidates.slice(0, 5).map(displayWord).join(", ")}`)
      .join("; ");
    $("#left").textContent = `Not solved in ${played}: ${left}. Press “New game” for another.`;
  } else {
    $("#left").textContent = `Guess ${played + 1} of ${state.max_guesses}; ${open.length} of ${state.boards} boards open`;
  }
  // Ranked by the open boards' guesses summed (an exact search near the end: expected).
  setColumns(["#", "Word", "Boards' guesses", "Expected guesses", "Could win board"]);
  fillSuggestions(state.solved || state.lost ? [] : state.suggestions, (s) => [
    s.board_guesses === null ? "exact" : s.board_guesses.toFixed(2),
    s.expected_guesses.toFixed(2), s.solves.join(" ")], useWord);
  const list = $("#candidates ul");
  list.replaceChildren(...state.board_states.flatMap((board, index) => {
    if (board.solved_in !== null) return [];
    const li = document.createElement("li");
    li.textContent = `Board ${index + 1}: ${board.candidates.map(displayWord).join(" ")}`;
    return [li];
  }));
  $("#candidates-note").textContent = "each open board's likeliest words";
}
