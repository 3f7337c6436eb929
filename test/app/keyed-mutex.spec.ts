import { expect } from 'chai';
import { KeyedMutex } from '../../src/app/keyed-mutex.js';

describe('KeyedMutex', () => {
  it('runs work for one key in the order it arrived, never two at once', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    let running = 0;
    const job = (name: string) =>
      mutex.run('k', async () => {
        running += 1;
        expect(running).to.equal(1);
        log.push(`start ${name}`);
        await new Promise((resolve) => setImmediate(resolve));
        log.push(`end ${name}`);
        running -= 1;
      });
    await Promise.all([job('a'), job('b'), job('c')]);
    expect(log).to.deep.equal(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('runs different keys concurrently, survives a failing job, and forgets idle keys', async () => {
    const mutex = new KeyedMutex();
    const order: string[] = [];
    let releaseSlow!: () => void;
    const slow = mutex.run('x', () => new Promise<void>((resolve) => (releaseSlow = resolve)).then(() => order.push('x')));
    await mutex.run('y', async () => order.push('y'));
    releaseSlow();
    await slow;
    expect(order).to.deep.equal(['y', 'x']);
    const failed = await mutex.run('x', async () => Promise.reject(new Error('boom'))).catch((e) => e);
    expect(failed).to.match(/boom/);
    expect(await mutex.run('x', async () => 'after')).to.equal('after');
    expect(mutex.size).to.equal(0);
  });
});
