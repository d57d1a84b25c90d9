// The suggestions table, for one board and several: each row its rank, the word as a
// button that puts it in the guess, then the mode's own cells.
import { displayWord } from "./board.js";

// `cells(s)`: the row's cells after the word; `useWord(word)`: what its button does.
export function fillSuggestions(suggestions, cells, useWord) {
  document.querySelector("#suggestions").hidden = suggestions.length === 0;
  document.querySelector("#suggestions tbody").replaceChildren(...suggestions.map((s, rank) => {
    const tr = document.createElement("tr");
    const use = document.createElement("button");
    use.type = "button";
    use.className = "word";
    use.textContent = displayWord(s.word);
    use.setAttribute("aria-label", `Use ${displayWord(s.word)}`);
    use.addEventListener("click", () => useWord(s.word));
    [String(rank + 1), use, ...cells(s)].forEach((cell) => {
      const td = document.createElement("td");
      td.append(cell);
      tr.append(td);
    });
    return tr;
  }));
}

// The suggestions table's column headings.
export function setColumns(names) {
  document.querySelector("#suggestions thead tr").replaceChildren(...names.map((name) => {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = name;
    return th;
  }));
}
