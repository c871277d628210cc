import { Suspense, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazyComponent } from './lazy-page';

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button
      type="button"
      onClick={() => {
        setCount(count + 1);
      }}
    >
      {label} {count}
    </button>
  );
}

function withFallback(children: React.ReactNode) {
  return <Suspense fallback={<p>loading</p>}>{children}</Suspense>;
}

describe('lazyComponent', () => {
  it('shows the fallback until the code has loaded', async () => {
    const Page = lazyComponent(() => Promise.resolve(Counter));
    render(withFallback(<Page label="page" />));
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'page 0' })).toBeTruthy();
  });

  it('renders at once, without the fallback, once preloaded', async () => {
    const Page = lazyComponent(() => Promise.resolve(Counter));
    await Page.preload();
    render(withFallback(<Page label="page" />));
    expect(screen.queryByText('loading')).toBeNull();
    expect(screen.getByRole('button', { name: 'page 0' })).toBeTruthy();
  });

  it('keeps the state of a page mounted before it finished loading when it renders again', async () => {
    const Page = lazyComponent(() => Promise.resolve(Counter));
    const { rerender } = render(withFallback(<Page label="page" />));
    await userEvent.click(await screen.findByRole('button', { name: 'page 0' }));
    rerender(withFallback(<Page label="again" />));
    expect(screen.getByRole('button', { name: 'again 1' })).toBeTruthy();
  });

  it('loads the code once, and again after a failure', async () => {
    let calls = 0;
    const Page = lazyComponent(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('chunk failed')) : Promise.resolve(Counter);
    });
    await expect(Page.preload()).rejects.toThrow('chunk failed');
    await Page.preload();
    await Page.preload();
    expect(calls).toBe(2);
    render(withFallback(<Page label="page" />));
    expect(screen.getByRole('button', { name: 'page 0' })).toBeTruthy();
  });
});
