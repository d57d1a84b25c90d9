// The page: renders the server's state, sends what the player does.
import {
  COLOUR_NAMES, anyColours, displayLetter, displayWord, letterStates, nextColour, parsePaste,
  refusal, speller, tileName,
} from "./board.js";
import {
  boardsColoursLine, drawBoardsAdvice, hideBoards, isMulti, readBoardsColours, renderBoards,
  resetBoardsColours, takeBoardsColours,
} from "./boards.js";
import { fillSuggestions, setColumns } from "./suggestions.js";

const $ = (selector) => document.querySelector(selector);
const KEY_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
const timings = (window.epdleTimings = { enterToSuggestions: [], enterToPanel: [] });

let state = null;
let colours = [];
let spell = speller(); // the game's language's: set from each state
let refusing = false; // the error shown is a refused letter's
let pendingEnter = null; // performance.now() of an Enter waiting for its advice
let pendingPanel = null; // {start, version}: an Enter waiting for the device to show it

const input = $("#guess");
const form = $("#guess-form");

function length() {
  return state ? state.length : 5;
}

function setError(message) {
  $("#error").textContent = message || "";
  refusing = false;
}

function setStatus(message) {
  $("#status").textContent = message || "";
}

async function api(path, body) {
  const options = body === undefined
    ? { method: "POST" }
    : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  // A message shown while the request was on its way (Enter on a short row) is the
  // player's to read: the request's success clears only what stood before it.
  const shown = $("#error").textContent;
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    setError("cannot reach epdle: is `epdle web` still running?");
    return null;
  }
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    setError(data.error);
    return null;
  }
  if ($("#error").textContent === shown) setError("");
  render(data);
  return data;
}

// -- the row being typed ------------------------------------------------------------------

function word() {
  const line = typedLine(input.value);
  return Array.from(spell(line ? line.word : input.value).word).slice(0, length()).join("");
}

// The box typed as a line, "salet bbbgb" (or "crane 21000", "crane 🟩🟨⬛⬛⬛"): the word
// and its colours, or null (colours: null until they are whole). The box keeps the line as
// typed, so the colours can be typed after the word.
function typedLine(text) {
  const match = text.match(/^\s*(\S+)[\s:=,]+(\S*)\s*$/u);
  if (!match) return null;
  const marks = match[2] ? anyColours(match[2]) : null;
  return { word: match[1], colours: marks, text: match[2] };
}

function typeLine(line) {
  const { refused } = spell(line.word);
  if (refused !== null) refuse(refused);
  else if (refusing) setError("");
  if (isMulti(state)) takeBoardsColours(line.text, state); // "crane gybbb/bbbbb"
  else if (line.colours !== null && Array.from(line.colours).length === length()) {
    colours = Array.from(line.colours);
  }
  renderCurrentRow();
}

// The row becomes `text` as the game's language spells it; a letter it does not have is
// left out and named.
function setWord(text) {
  const { word: letters, refused } = spell(text);
  input.value = Array.from(letters).slice(0, length()).join("");
  if (refused !== null) refuse(refused);
  else if (refusing) setError("");
  renderCurrentRow();
}

function refuse(letter) {
  setError(refusal(letter, state?.language));
  refusing = true;
}

function resetColours() {
  colours = Array.from({ length: length() }, () => "B");
  if (isMulti(state)) resetBoardsColours(state);
}

function submit() {
  const guess = word();
  if (guess.length !== length()) {
    setError(`type a ${length()}-letter word first`);
    input.focus();
    return;
  }
  pendingEnter = performance.now();
  pendingPanel = { start: pendingEnter, version: state.device.panel_version };
  const fromRow = document.activeElement === input || $("#current").contains(document.activeElement);
  const sent = coloursToSend();
  const typed = input.value;
  const tiles = colours.join("");
  api("/api/guess", { word: guess, colours: sent, turn: state.history.length }).then((data) => {
    if (data) {
      // The new state's event may come before this reply, and the next word be typed (or
      // its colours set) already: the row is cleared only if it is still the one sent.
      if (input.value === typed && colours.join("") === tiles) {
        input.value = "";
        resetColours();
      }
      renderCurrentRow();
      if (fromRow || document.activeElement === document.body) input.focus();
    } else if (!data) {
      pendingEnter = null;
      pendingPanel = null;
    }
  });
}

// The colours a guess is sent with: the tiles' (every board's), unless the box holds
// colours typed after the word that the tiles could not take (a mark that is none, too few
// or too many, a group short): those go as typed, for the server to refuse with the command
// line's own message.
function coloursToSend() {
  const tiles = isMulti(state) ? boardsColoursLine(state) : colours.join("");
  const line = typedLine(input.value);
  if (!line || !line.text) return tiles;
  const taken = isMulti(state)
    ? readBoardsColours(line.text, state) !== null
    : line.colours !== null && Array.from(line.colours).length === length();
  return taken ? tiles : line.text;
}

function press(key) {
  if (key === "enter") submit();
  else if (key === "backspace") setWord(Array.from(word()).slice(0, -1).join(""));
  else if (spell(key).refused !== null) refuse(spell(key).refused);
  else if (Array.from(word()).length < length()) setWord(word() + key);
}

// -- rendering ------------------------------------------------------------------------------

function tile(letter, colour) {
  const element = document.createElement("span");
  element.className = `tile ${colour ? `c-${colour}` : "empty"}`;
  element.textContent = letter ? displayLetter(letter) : "";
  return element;
}

function renderBoard() {
  const board = $("#board");
  board.replaceChildren();
  document.querySelector("main").classList.toggle("multi", isMulti(state));
  if (isMulti(state)) return; // each board draws its own (renderCurrentRow)
  hideBoards();
  state.history.forEach(({ word: played, colours: marks }, row) => {
    const line = document.createElement("li");
    line.className = "row";
    const said = Array.from(played)
      .map((letter, i) => `${displayLetter(letter)} ${COLOUR_NAMES[marks[i]]}`)
      .join(", ");
    line.setAttribute("aria-label", `Guess ${row + 1}: ${said}`);
    Array.from(played).forEach((letter, i) => {
      const element = tile(letter, marks[i]);
      element.setAttribute("aria-hidden", "true");
      line.append(element);
    });
    board.append(line);
  });
}

// Re-rendering replaces the buttons in `container`: keep the focus on the one at the same
// place (a state from another tab or from the device must not throw a keyboard user out).
function keepingFocus(container, draw) {
  const buttons = () => Array.from(container.querySelectorAll("button"));
  const focused = buttons().indexOf(document.activeElement);
  draw();
  if (focused >= 0) buttons()[Math.min(focused, buttons().length - 1)]?.focus();
}

function renderCurrentRow() {
  keepingFocus($("#current"), drawCurrentRow);
  if (isMulti(state)) renderBoards(state, word(), submit);
}

function drawCurrentRow() {
  const row = $("#current");
  const letters = Array.from(word());
  const done = state && (state.solved || state.lost);
  row.hidden = Boolean(done) || isMulti(state);
  row.replaceChildren();
  for (let i = 0; i < length(); i += 1) {
    const button = document.createElement("button");
    button.type = "button";
    const letter = letters[i] || "";
    button.className = `tile ${letter ? `c-${colours[i]}` : `empty c-${colours[i]}`}`;
    button.textContent = letter ? displayLetter(letter) : "";
    button.setAttribute("aria-label", tileName(letter, i, colours[i]));
    button.addEventListener("click", () => {
      colours[i] = nextColour(colours[i]);
      renderCurrentRow();
    });
    button.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { // Space changes the colour; Enter plays, as in the box
        event.preventDefault();
        submit();
      }
    });
    row.append(button);
  }
}

function renderKeyboard() {
  const states = letterStates(isMulti(state) ? [] : state.history);
  for (const key of document.querySelectorAll("#keyboard [data-key]")) {
    const colour = states[key.dataset.key];
    key.classList.remove("c-B", "c-Y", "c-G");
    if (colour) key.classList.add(`c-${colour}`);
  }
}

function renderAdvice() {
  const useWord = (chosen) => {
    setWord(chosen);
    input.focus();
  };
  keepingFocus($("#suggestions"), isMulti(state)
    ? () => drawBoardsAdvice(state, useWord) : () => drawAdvice(useWord));
}

function drawAdvice(useWord) {
  if (state.solved) {
    $("#left").textContent = `Solved in ${state.history.length}! Press “New game” for another.`;
  } else if (state.lost) {
    const left = state.candidates_left;
    const words = state.candidates.slice(0, 10).map(displayWord).join(", ");
    $("#left").textContent = `Not solved in ${state.history.length}: ${left === 1
      ? `the answer was ${words}` : `${left} words were left (${words})`}. Press “New game” for another.`;
  } else {
    const left = state.candidates_left;
    $("#left").textContent = `${left} candidate${left === 1 ? "" : "s"} left`;
  }
  // `best` ranks by its expected guesses to finish: the table shows that figure too. On
  // the last guesses a word that could win says its chance ("1 in 4").
  const figured = state.settings.strategy === "best"
    || state.suggestions.some((s) => s.guesses !== null);
  setColumns(["#", "Word", "Bits", "Left after", ...(figured ? ["Guesses (est.)"] : []),
    "Could win"]);
  fillSuggestions(state.lost ? [] : state.suggestions, (s) => [
    s.bits.toFixed(2), s.expected_left.toFixed(1),
    ...(figured ? [s.guesses === null ? "" : s.guesses.toFixed(2)] : []),
    s.could_win ? (s.chance ?? "yes") : ""], useWord);
  const list = $("#candidates ul");
  list.replaceChildren(...state.candidates.map((c) => {
    const li = document.createElement("li");
    li.textContent = displayWord(c);
    return li;
  }));
  $("#candidates-note").textContent = state.candidates_left > state.candidates.length
    ? `the ${state.candidates.length} likeliest of ${state.candidates_left}` : "";
}

// Which words the advice weighs and under which rule, in one line.
function modeText() {
  const { settings } = state;
  let words = `${state.answer_list} (every accepted word if today's answer is not on it)`;
  if (state.widened) words = `every accepted word, the common ones first: the answer is not in ${state.answer_list}`;
  else if (state.prior_name === "history") words = "every accepted word, by the answers played before";
  else if (settings.blind) words = "every accepted word, the common ones first";
  return `Words: ${words}${settings.hard ? " · hard mode" : ""}`;
}

// The prior the candidates are weighed by, and how old its answer history is; the note
// that says how to bring the history up to date while it is behind.
function renderPrior() {
  $("#prior").textContent = `Prior: ${state.prior_line}`;
  const note = $("#prior-note");
  note.textContent = state.history_note ? `Note: ${state.history_note}` : "";
  note.hidden = !state.history_note;
}

function renderDevice() {
  const { device } = state;
  const panel = $("#panel");
  const source = `/panel.png?v=${device.panel_version}`;
  if (panel.getAttribute("src") !== source) panel.setAttribute("src", source);
  panel.dataset.version = String(device.panel_version);
  if (pendingPanel && device.panel_version > pendingPanel.version && pendingEnter === null) {
    timings.enterToPanel.push(performance.now() - pendingPanel.start);
    pendingPanel = null;
  }
  const where = device.simulated ? "simulated board" : device.port;
  let text = `${where}: `;
  if (device.error) text += device.error;
  else if (device.updating) text += "updating the panel…";
  else if (device.panel_frame) text += `showing suggestion ${device.panel_frame} of ${device.frames}`;
  else text += device.connected ? "connected" : "connecting…";
  $("#device").textContent = text;
  $("#device").classList.toggle("problem", Boolean(device.error));
  $("#press").disabled = !device.simulated;
  $("#full-refresh").checked = device.full_refresh;
}

function renderSettings() {
  const select = $("#strategy");
  if (select.options.length !== state.strategies.length) {
    select.replaceChildren(...state.strategies.map((name) => new Option(name, name)));
  }
  select.value = state.settings.strategy;
  $("#hard").checked = state.settings.hard;
  $("#blind").checked = state.settings.blind;
}

function noteAdvice() {
  if (pendingEnter !== null) {
    timings.enterToSuggestions.push(performance.now() - pendingEnter);
    pendingEnter = null;
  }
}

function render(next) {
  const sameServer = state && next.server === state.server;
  if (sameServer && next.revision <= state.revision) {
    // An older state arriving late, or this one again (the reply and its event).
    if (next.revision === state.revision) noteAdvice();
    return;
  }
  const first = state === null;
  state = next;
  if (first || colours.length !== state.length) resetColours();
  setLanguage(state.language);
  document.documentElement.style.setProperty("--length", String(state.length));
  renderBoard();
  renderCurrentRow();
  renderKeyboard();
  renderAdvice();
  renderDevice();
  renderSettings();
  $("#mode").textContent = modeText();
  renderPrior();
  $("#undo").disabled = state.history.length === 0;
  noteAdvice();
  document.dispatchEvent(new CustomEvent("epdle-state", { detail: state })); // review.js
  if (first) {
    timings.firstState = performance.now();
    document.body.dataset.ready = "true";
  }
}

// -- wiring ---------------------------------------------------------------------------------

// The language's letters beyond a-z (German ä ö ü ß, Spanish ñ) get a row of their own.
function setLanguage(language) {
  const keyboard = $("#keyboard");
  if (keyboard.dataset.alphabet === language.alphabet) return;
  spell = speller(language);
  document.documentElement.lang = language.code;
  const extra = Array.from(language.alphabet).filter((letter) => !/^[a-z]$/.test(letter));
  keepingFocus(keyboard, () => buildKeyboard(extra.join("")));
  keyboard.dataset.alphabet = language.alphabet;
  if (input.value !== word()) setWord(input.value);
}

function buildKeyboard(extra = "") {
  const keyboard = $("#keyboard");
  keyboard.replaceChildren();
  const rows = extra ? [...KEY_ROWS, extra] : KEY_ROWS;
  rows.forEach((letters, row) => {
    const line = document.createElement("div");
    line.className = "keys";
    const keys = Array.from(letters);
    if (row === 2) keys.unshift("enter");
    if (row === 2) keys.push("backspace");
    for (const key of keys) {
      const button = document.createElement("button");
      button.dataset.key = key;
      if (key === "enter") {
        button.type = "button";
        button.addEventListener("click", () => press("enter"));
        button.textContent = "Enter";
        button.className = "wide";
        delete button.dataset.key;
      } else if (key === "backspace") {
        button.type = "button";
        button.textContent = "⌫";
        button.setAttribute("aria-label", "Backspace");
        button.className = "wide";
        delete button.dataset.key;
        button.addEventListener("click", () => press("backspace"));
      } else {
        button.type = "button";
        button.textContent = displayLetter(key);
        button.addEventListener("click", () => press(key));
      }
      line.append(button);
    }
    keyboard.append(line);
  });
}

function handlePaste(event) {
  const text = event.clipboardData?.getData("text") ?? "";
  const meaning = parsePaste(text, state ? state.history.length : 0, length(), spell);
  if (meaning === null) return;
  event.preventDefault();
  if (meaning.error) {
    setError(meaning.error);
    return;
  }
  setError("");
  if (meaning.word !== undefined) setWord(meaning.word);
  if (meaning.colours !== undefined) colours = Array.from(meaning.colours);
  renderCurrentRow();
}

// A control that takes the keys typed into it: a text box, a list, not a checkbox.
function typing(target) {
  if (target instanceof HTMLInputElement) return !["checkbox", "radio", "button"].includes(target.type);
  return target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
}

// Enter plays the row wherever the focus is: on a button clicked last (New game, Press
// button, a key of the on-screen keyboard), on the page itself; the guess box and the
// tiles play it themselves, a text box of another form (the review's) keeps its Enter.
function playsOnEnter(target) {
  return !typing(target) && !target.closest?.("form, #boards");
}

function wire() {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  input.addEventListener("input", () => {
    const line = typedLine(input.value);
    if (line === null) setWord(input.value);
    else typeLine(line);
  });
  document.addEventListener("paste", handlePaste);
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Enter" && playsOnEnter(event.target)) {
      event.preventDefault(); // not a click on the button that has the focus
      submit();
      return;
    }
    if (typing(event.target)) return;
    if (Array.from(event.key).length === 1 && /\p{L}/u.test(event.key)) {
      event.preventDefault(); // a letter typed anywhere on the page goes to the row
      press(event.key.toLowerCase());
    } else if (event.key === "Backspace") {
      event.preventDefault();
      press("backspace");
    }
  });
  $("#undo").addEventListener("click", () => api("/api/undo"));
  $("#new").addEventListener("click", () => {
    input.value = "";
    resetColours();
    api("/api/new");
  });
  $("#press").addEventListener("click", () => api("/api/press"));
  for (const id of ["strategy", "hard", "blind"]) {
    $(`#${id}`).addEventListener("change", () => {
      setStatus("switching…");
      api("/api/settings", {
        strategy: $("#strategy").value, hard: $("#hard").checked, blind: $("#blind").checked,
      }).then((data) => {
        setStatus("");
        if (!data) renderSettings();
      });
    });
  }
  $("#full-refresh").addEventListener("change", () => {
    api("/api/settings", { full_refresh: $("#full-refresh").checked }).then((data) => {
      if (!data) renderDevice();
    });
  });
  const palette = $("#palette");
  palette.checked = localStorage.getItem("epdle-palette") === "contrast";
  document.documentElement.classList.toggle("contrast", palette.checked);
  palette.addEventListener("change", () => {
    localStorage.setItem("epdle-palette", palette.checked ? "contrast" : "normal");
    document.documentElement.classList.toggle("contrast", palette.checked);
  });
}

function listen() {
  const events = new EventSource("/api/events");
  events.addEventListener("state", (event) => render(JSON.parse(event.data)));
  events.addEventListener("open", () => setStatus(""));
  events.addEventListener("error", () => {
    setStatus("lost the connection to epdle; retrying…");
  });
}

buildKeyboard();
wire();
renderCurrentRow();
fetch("/api/state")
  .then((response) => response.json())
  .then(render)
  .catch(() => setError("cannot reach epdle: is `epdle web` still running?"));
listen();
