// The Review panel: a finished game scored turn by turn (POST /api/review, the JSON of
// `epdle review --json`), shown when the page's game ends; any other game from its shared
// grid and words, or its words and colours.
import { COLOUR_NAMES, displayLetter, displayWord } from "./board.js";

const $ = (selector) => document.querySelector(selector);
const table = $("#review-table");
const form = $("#review-form");

let reviewed = null; // the key of the game on show: its server and history
let automatic = false; // it is the page's own game (cleared with a new game)

async function fetchReview(body) {
  let response;
  try {
    response = await fetch("/api/review", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    return { error: "cannot reach epdle: is `epdle web` still running?" };
  }
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  return response.ok ? { review: data } : { error: data.error };
}

// A guess's tiles in `colours` into `element`, which says them (its aria-label).
function tiles(element, word, colours, prefix = "") {
  const said = Array.from(word)
    .map((letter, i) => `${displayLetter(letter)} ${COLOUR_NAMES[colours[i]]}`)
    .join(", ");
  element.setAttribute("aria-label", prefix + said);
  Array.from(word).forEach((letter, i) => {
    const tile = document.createElement("span");
    tile.className = `tile c-${colours[i]}`;
    tile.textContent = displayLetter(letter);
    tile.setAttribute("aria-hidden", "true");
    element.append(tile);
  });
  return element;
}

function guessCell(turn) {
  const cell = document.createElement("td");
  cell.className = "review-guess";
  return tiles(cell, turn.guess, turn.colours);
}

// Several boards: the guess's tiles on each board open before it, a line each, and each
// board's candidates before and after (their words where few are left).
const FEW = 6;

function boardsCells(turn) {
  const guess = document.createElement("td");
  guess.className = "review-boards";
  const left = cell("", 2);
  left.className = "review-boards";
  for (const board of turn.boards) {
    const line = document.createElement("div");
    line.className = "review-guess";
    guess.append(tiles(line, turn.guess, board.colours, `Board ${board.board}: `));
    const count = document.createElement("div");
    const words = board.candidates_after.map(displayWord).join(" ");
    count.textContent =
      `${board.board}: ${board.left_before} → ${board.left_after}` +
      (board.left_after <= FEW ? ` ${words}` : "");
    left.append(count);
  }
  return [guess, left];
}

// Each figure's cell carries its column's name: a narrow screen shows it before the figure
// (review.css lays a turn out as a card there).
const COLUMNS = Array.from(table.querySelectorAll("thead th"), (th) => th.textContent);

function cell(text, column) {
  const element = document.createElement("td");
  element.textContent = text;
  element.dataset.label = COLUMNS[column];
  return element;
}

// The candidates before a turn's guess, likeliest first (the review lists a few), and how
// many more there were.
// One board: its candidates before the guess (several boards list theirs per board).
function candidatesText(turn) {
  if (turn.candidates === undefined) return "–";
  const words = turn.candidates.map(displayWord).join(" ");
  const more = turn.left_before - turn.candidates.length;
  return more > 0 ? `${words} (+${more})` : words;
}

function show(review, title) {
  const body = table.querySelector("tbody");
  body.replaceChildren();
  review.turns.forEach((turn, index) => {
    const row = document.createElement("tr");
    const number = document.createElement("th");
    number.scope = "row";
    number.textContent = String(index + 1);
    const several = review.boards !== undefined;
    row.append(
      number,
      ...(several
        ? boardsCells(turn)
        : [guessCell(turn), cell(`${turn.left_before} → ${turn.left_after}`, 2)]),
      cell(displayWord(turn.best), 3),
      cell(turn.expected_best.toFixed(2), 4),
      cell(turn.expected_played.toFixed(2), 5),
      cell(several ? "–" : turn.expected_after.toFixed(2), 6),
      cell(String(turn.skill), 7),
      cell(String(turn.luck), 8),
      cell(candidatesText(turn), 9),
    );
    row.lastChild.className = "review-candidates";
    body.append(row);
  });
  const ending = review.solved ? `solved in ${review.turns.length}` : "not solved";
  const opener =
    review.skill_after_opener === null ? "" : ` (${review.skill_after_opener} without the opener)`;
  $("#review-total").textContent =
    `Skill ${review.skill}/99${opener}, luck ${review.luck}/99; ${ending}. ` +
    `Reviewed in ${review.mode} mode; prior: ${review.prior}.`;
  $("#review-status").textContent = title;
  table.hidden = false;
}

function clear(message) {
  table.hidden = true;
  table.querySelector("tbody").replaceChildren();
  $("#review-total").textContent = "";
  $("#review-status").textContent = message;
}

const WAITING = "When a game ends, its review shows here: each guess against the best move.";

async function onState(state) {
  const over = state.solved || state.lost;
  if (!over) {
    if (automatic || reviewed === null) clear(WAITING);
    if (automatic) reviewed = null;
    automatic = false;
    return;
  }
  const key = JSON.stringify([state.server, state.history]);
  if (key === reviewed) return;
  reviewed = key;
  automatic = true;
  $("#review-status").textContent = "Reviewing the game…";
  const { review, error } = await fetchReview({ history: state.history });
  if (reviewed !== key) return; // another game came meanwhile
  if (error) clear(`No review: ${error}`);
  else show(review, "This game, turn by turn:");
}

async function reviewPasted(event) {
  event.preventDefault();
  const game = $("#review-game").value;
  const words = $("#review-words").value.trim();
  const body = words ? { grid: game, words } : { history: game };
  const button = form.querySelector("button");
  $("#review-error").textContent = "";
  button.disabled = true;
  $("#review-status").textContent = "Reviewing the game…";
  const { review, error } = await fetchReview(body);
  button.disabled = false;
  if (error) {
    $("#review-error").textContent = error;
    $("#review-status").textContent = "";
    return;
  }
  reviewed = `pasted ${JSON.stringify(body)}`;
  automatic = false;
  show(review, "The game pasted, turn by turn:");
}

clear(WAITING);
form.addEventListener("submit", reviewPasted);
// What is typed or pasted here is the review's, not the guess row's (the page's own
// keyboard and paste handlers sit on the document).
for (const name of ["keydown", "paste"]) {
  form.addEventListener(name, (event) => event.stopPropagation());
}
document.addEventListener("epdle-state", (event) => onState(event.detail));
