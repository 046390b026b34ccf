import { fireEvent, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Clamped } from '@/components/resource/columnLayout';

// every antd Tooltip made, counted: a list's cells must make none until the pointer enters a cut one
const made = vi.hoisted(() => ({ tooltips: 0 }));
vi.mock('antd', async (importOriginal) => {
  const antd = await importOriginal<typeof import('antd')>();
  const Tooltip = (props: Parameters<typeof antd.Tooltip>[0]) => {
    made.tooltips++;
    return createElement(antd.Tooltip, props);
  };
  return { ...antd, Tooltip };
});

/** jsdom lays nothing out: a cell's text is cut when its scrollWidth passes its clientWidth. */
function cut(element: HTMLElement, by: number) {
  Object.defineProperty(element, 'clientWidth', { configurable: true, value: 100 });
  Object.defineProperty(element, 'scrollWidth', { configurable: true, value: 100 + by });
}

describe('a list cell (Clamped)', () => {
  it('is a plain element until the pointer enters it: no tooltip is made for a page of cells', () => {
    made.tooltips = 0;
    render(
      <div>
        {Array.from({ length: 50 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <Clamped key={i} width={200}>{`cell ${i}`}</Clamped>
        ))}
      </div>,
    );
    expect(screen.getByText('cell 49')).toBeInTheDocument();
    expect(made.tooltips).toBe(0);
  });

  it('shows its whole text in a tooltip while the pointer is over it, only when the text is cut', async () => {
    made.tooltips = 0;
    render(
      <div>
        <Clamped width={100}>a rather long name that does not fit</Clamped>
        <Clamped width={100}>short</Clamped>
      </div>,
    );
    fireEvent.mouseEnter(screen.getByText('short'));
    expect(made.tooltips).toBe(0);
    expect(screen.queryByRole('tooltip')).toBeNull();

    const long = screen.getByText('a rather long name that does not fit');
    cut(long, 50);
    fireEvent.mouseEnter(long);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('a rather long name that does not fit');
    // still the cell's own text for a reader
    expect(screen.getAllByText('a rather long name that does not fit').length).toBeGreaterThan(0);
  });
});
