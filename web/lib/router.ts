/** Pages are addressed by the URL's hash (#/grid-bots/7), so the server serves one document. */
import { useEffect, useState } from 'preact/hooks';

export function useHashPath(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const onChange = () => setPath(currentPath());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return path;
}

function currentPath(): string {
  return location.hash.replace(/^#/, '') || '/';
}

export function navigate(path: string): void {
  location.hash = path;
}

/** Matches "/grid-bots/:id" against "/grid-bots/7" and answers { id: "7" }, or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const regex = new RegExp(`^${pattern.replace(/:(\w+)/g, (_, name: string) => (names.push(name), '([^/]+)'))}$`);
  const found = regex.exec(path);
  if (!found) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1]!)]));
}
