import { createContext, useContext, useEffect } from 'react';

/** What a screen tells the frame around it (its tab and page header); one per tab pane. */
export interface PaneFrame {
  /** The list a record screen belongs to: the way back when its record is missing. */
  backPath?: string;
  /** Titles the tab and the page header after the record: `<entity> · <name>`. */
  setRecord(titleId: string, name: string): void;
  /** The record does not exist: the screen says so and its tab goes. */
  markMissing(): void;
}

export const PaneContext = createContext<PaneFrame | undefined>(undefined);

/** For profile and edit screens: name the tab after the record once it loads, or drop it when there is none. */
export function useRecordFrame(titleId: string, name: string | undefined, missing: boolean): PaneFrame | undefined {
  const frame = useContext(PaneContext);
  useEffect(() => {
    if (name) frame?.setRecord(titleId, name);
  }, [frame, titleId, name]);
  useEffect(() => {
    if (missing) frame?.markMissing();
  }, [frame, missing]);
  return frame;
}
