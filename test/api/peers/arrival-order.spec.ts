import { expect } from 'chai';
import { ArrivalOrder } from '../../../src/api/peers/arrival-order.js';

/** The order envelopes arrived in, for a check-in that must let the ones before it finish. */
describe('ArrivalOrder', () => {
  it('does not wait where nothing arrived before, or everything before has left', async () => {
    const order = new ArrivalOrder();
    const first = order.arrive();
    expect(await order.earlierLeft(first, 60_000)).to.equal(false);
    const second = order.arrive();
    order.leave(first);
    expect(await order.earlierLeft(second, 60_000)).to.equal(false);
  });

  it('wakes a waiter once every earlier arrival has left, whatever the order they leave in, and not before', async () => {
    const order = new ArrivalOrder();
    const [a, b, waiter, later] = [order.arrive(), order.arrive(), order.arrive(), order.arrive()];
    let woken = false;
    const waited = order.earlierLeft(waiter, 60_000).then((waitedForAny) => {
      woken = true;
      return waitedForAny;
    });
    order.leave(b);
    order.leave(later);
    await new Promise((resolve) => setImmediate(resolve));
    expect(woken, 'a is still under way').to.equal(false);
    order.leave(a);
    expect(await waited).to.equal(true);
    order.leave(waiter);
    expect(order.size).to.equal(0);
  });

  it('gives up waiting after the time it is given', async () => {
    const order = new ArrivalOrder();
    order.arrive();
    const waiter = order.arrive();
    expect(await order.earlierLeft(waiter, 5)).to.equal(true);
  });

  it('takes a second leave as the first', () => {
    const order = new ArrivalOrder();
    const only = order.arrive();
    order.leave(only);
    order.leave(only);
    expect(order.size).to.equal(0);
  });
});
