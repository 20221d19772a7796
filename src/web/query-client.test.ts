import { QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../client/api-error.ts';
import { createQueryClient, retryDelay, retryFailedOnReturn } from './query-client.ts';

const outage = () =>
  new ApiError({ status: 0, code: 'network_error', message: 'Could not reach the server' });

describe('the console query client', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits 1 s, 2 s, then never more than 3 s between retries', () => {
    expect([0, 1, 2, 3, 8].map(retryDelay)).toEqual([1_000, 2_000, 3_000, 3_000, 3_000]);
  });

  it('tries a failed query on screen again every few seconds and at once when the window regains focus', async () => {
    const queryClient = createQueryClient();
    let up = false;
    const queryFn = vi.fn(async () => {
      if (!up) throw outage();
      return 'fresh';
    });
    const observer = new QueryObserver(queryClient, { queryKey: ['thing'], queryFn, retry: false });
    const unsubscribe = observer.subscribe(() => {});
    const stop = retryFailedOnReturn(queryClient, window, 3_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(observer.getCurrentResult().status).toBe('error');

    await vi.advanceTimersByTimeAsync(3_000);
    expect(queryFn).toHaveBeenCalledTimes(2);

    up = true;
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(observer.getCurrentResult().data).toBe('fresh');
    stop();
    unsubscribe();
  });

  it('leaves alone a query that still shows its data, and a refused request', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(['shown'], 'old');
    const shownFn = vi.fn(async () => {
      throw outage();
    });
    const unsubscribeShown = new QueryObserver(queryClient, {
      queryKey: ['shown'],
      queryFn: shownFn,
      retry: false,
      staleTime: Number.POSITIVE_INFINITY,
    }).subscribe(() => {});
    await queryClient.refetchQueries({ queryKey: ['shown'] });
    expect(queryClient.getQueryState(['shown'])?.status).toBe('error');
    const stopShown = retryFailedOnReturn(queryClient, window, 3_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(shownFn).toHaveBeenCalledTimes(1);
    stopShown();
    unsubscribeShown();

    const queryFn = vi.fn(async () => {
      throw new ApiError({ status: 404, code: 'not_found', message: 'No such thing' });
    });
    const unsubscribe = new QueryObserver(queryClient, { queryKey: ['gone'], queryFn }).subscribe(() => {});
    const stop = retryFailedOnReturn(queryClient, window, 3_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(queryFn).toHaveBeenCalledTimes(1);
    stop();
    unsubscribe();
  });
});
