// The part of d3-graphviz the webview uses (the package ships no type declarations).
declare module 'd3-graphviz' {
  interface Graphviz {
    renderDot(dot: string): Graphviz;
    on(event: string, listener: () => void): Graphviz;
  }
  export function graphviz(selector: string, options?: { useWorker?: boolean; fit?: boolean; zoom?: boolean }): Graphviz;
}
