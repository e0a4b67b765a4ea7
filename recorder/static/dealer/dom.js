// @ts-check
// Building DOM with escaping by construction: text goes in as text nodes (textContent), never
// as HTML, so a player's name or a server message can never become markup.

/**
 * An element: h("li", {class: "x", dataset: {v: 1}}, "text", child, [more]).
 * @param {string} tag
 * @param {Record<string, any> | null} [props]
 * @param {...any} children strings, numbers, nodes, arrays of them; null and false are skipped
 * @returns {HTMLElement}
 */
export function h(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "disabled" || key === "hidden") /** @type {any} */ (node)[key] = !!value;
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

/**
 * @param {Node} node
 * @param {any[]} children
 */
function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replace what `box` holds with `children`.
 * @param {HTMLElement} box
 * @param {...any} children
 */
export function fill(box, ...children) {
  box.replaceChildren();
  append(box, children);
}
