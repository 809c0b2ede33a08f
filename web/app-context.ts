import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient, Mode, Session } from './api/client.ts';

export interface AppState {
  client: ApiClient;
  session: Session;
  setMode(mode: Mode): void;
  setRefresh(milliseconds: number): void;
  signOut(): void;
}

export const AppContext = createContext<AppState | undefined>(undefined);

export function useApp(): AppState {
  const state = useContext(AppContext);
  if (!state) throw new Error('useApp outside a signed-in page');
  return state;
}
