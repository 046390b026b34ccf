import { history } from '@umijs/max';
import { createContext, useContext, useEffect } from 'react';

/** What a screen tells the frame around it (its tab and page header); one per tab pane. */
export interface PaneFrame {
  /** The list a record screen belongs to: the way back when its record is missing. */
  backPath?: string;
  /** Titles the tab and the page header after the record: `<entity> · <name>`. */
  setRecord(titleId: string, name: string): void;
  /** The record does not exist: the screen says so and its tab goes. */
  markMissing(): void;
  /** The screen's work is done (a form saved): its tab goes, with what it held, and `to` opens, read afresh. */
  finish(to: string): void;
  /** Calls `listener` each time the screen shows again after another tab (not when it first opens); undoes it. */
  onShown(listener: () => void): () => void;
}

export const PaneContext = createContext<PaneFrame | undefined>(undefined);

/** `effect` each time the screen around shows again after another tab: a kept list reads its page afresh. */
export function usePaneShown(effect: () => void): void {
  const frame = useContext(PaneContext);
  useEffect(() => frame?.onShown(effect), [frame, effect]);
}

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

/**
 * A form screen done with its work opens `to` and closes its own tab, so that coming back to it (a new question, the
 * same record's edit) starts afresh instead of showing the form as it was left. Outside the tabs, it only opens `to`.
 */
export function finishScreen(frame: PaneFrame | undefined, to: string): void {
  if (frame) frame.finish(to);
  else history.push(to);
}
