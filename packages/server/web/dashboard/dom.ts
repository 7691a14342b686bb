/** Attributes and event handlers of one element; null/false leave one out. */
type Props = Record<
  string,
  string | number | boolean | null | undefined | ((e: Event) => void)
>
/** What may stand as a child: nodes, text, nothing. */
export type Child = Node | string | number | null | undefined | false | Child[]

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return
  if (Array.isArray(child)) {
    for (const c of child) append(parent, c)
    return
  }
  parent.appendChild(
    typeof child === 'object' ? child : document.createTextNode(String(child)),
  )
}

/**
 * Builds an HTML element: `h('p', { class: 'x' }, 'text', h('b', {}, 'y'))`.
 * Text is always a text node, never parsed as HTML, so values from the API
 * cannot inject markup.
 */
export function h(tag: string, props: Props = {}, ...children: Child[]) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue
    if (typeof value === 'function') {
      el.addEventListener(name.replace(/^on/, ''), value)
    } else {
      el.setAttribute(name, value === true ? '' : String(value))
    }
  }
  append(el, children)
  return el
}

const SVG = 'http://www.w3.org/2000/svg'

/** Builds an SVG element with attributes. */
export function s(
  tag: string,
  attrs: Record<string, string | number> = {},
  ...children: Child[]
): SVGElement {
  const el = document.createElementNS(SVG, tag)
  for (const [name, value] of Object.entries(attrs)) {
    el.setAttribute(name, String(value))
  }
  append(el, children)
  return el
}
