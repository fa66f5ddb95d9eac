/**
 * The part of React that islands use, with React's server-render semantics, for the
 * server's own build of the islands (scripts/build-shells.mjs aliases `react` and
 * `react/jsx-runtime` to this module). Elements are plain objects that
 * html-renderer.ts turns into the HTML React would produce; hooks answer as they do
 * during a server render (initial state, effects never run, stores' server snapshot).
 * Anything else throws Unsupported, and the shell renders that island through React.
 */

/** An island used something this subset does not render the way React would. */
export class Unsupported extends Error {}

/** Marks the objects jsx() makes (React's own elements are not accepted by the renderer). */
export const ELEMENT = Symbol.for('whatismyip.shell-element');
export const Fragment = Symbol.for('react.fragment');

export interface ShellElement {
  $$typeof: typeof ELEMENT;
  type: string | symbol | ((props: Record<string, unknown>) => unknown);
  props: Record<string, unknown>;
}

/** The automatic JSX runtime's entry: `key` is dropped, as React drops it from props. */
export function jsx(type: ShellElement['type'], props: Record<string, unknown>): ShellElement {
  if ('key' in props) {
    const { key: _key, ...rest } = props;
    return { $$typeof: ELEMENT, type, props: rest };
  }
  return { $$typeof: ELEMENT, type, props };
}
export { jsx as jsxs, jsx as jsxDEV };

/** `createElement(type, props, ...children)`, for code that calls it directly. */
export function createElement(type: ShellElement['type'], config: Record<string, unknown> | null, ...children: unknown[]): ShellElement {
  const props: Record<string, unknown> = {};
  for (const name in config) if (name !== 'key') props[name] = config[name];
  if (children.length) props.children = children.length === 1 ? children[0] : children;
  return jsx(type, props);
}

const noop = () => {};

export function useState<T>(initial: T | (() => T)): [T, () => void] {
  return [typeof initial === 'function' ? (initial as () => T)() : initial, noop];
}
export function useReducer<S, A>(_reducer: (s: S, a: A) => S, initialArg: S, init?: (arg: S) => S): [S, () => void] {
  return [init ? init(initialArg) : initialArg, noop];
}
export function useRef<T>(current: T): { current: T } {
  return { current };
}
export const useEffect = noop;
export const useLayoutEffect = noop;
export const useInsertionEffect = noop;
export function useMemo<T>(make: () => T): T {
  return make();
}
export function useCallback<T>(callback: T): T {
  return callback;
}
export function useSyncExternalStore<T>(_subscribe: unknown, _get: () => T, getServerSnapshot?: () => T): T {
  // React refuses to server-render a store without a server snapshot; so does the shell.
  if (!getServerSnapshot) throw new Unsupported('useSyncExternalStore without getServerSnapshot');
  return getServerSnapshot();
}
export function useDeferredValue<T>(value: T, initialValue?: T): T {
  return initialValue === undefined ? value : initialValue;
}
export function useTransition(): [boolean, (run: () => void) => void] {
  return [false, (run) => run()];
}

const unsupported = (name: string) => () => {
  throw new Unsupported(name);
};
export const useId = unsupported('useId');
export const useContext = unsupported('useContext');
export const createContext = unsupported('createContext');
export const use = unsupported('use');
export const memo = unsupported('memo');
export const forwardRef = unsupported('forwardRef');
export const lazy = unsupported('lazy');
export const Suspense = Symbol.for('react.suspense');
