// One table's WebSocket (docs/protocol.md §3): requests answered by ok/error, pushed
// messages (snapshot, event, balance, countdown, roads) to a handler, reconnection, and
// the connection's health: the round trip of a `ping` every few seconds.
import { ApiError } from "./api.js";
import { token } from "./session.js";

const CLOSE_EXPIRED = 4401;
const CLOSE_NO_TABLE = 4404;
const PING_EVERY = 10000;

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {{onMessage: (msg: object) => void, onStatus?: (status: string, detail?: string) => void,
   *          onHealth?: (rtt: number | null) => void}} handlers
   * `onHealth` gets each ping's round trip in ms (null: the ping had no answer).
   */
  constructor(tableId, { onMessage, onStatus = () => {}, onHealth = () => {} }) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onHealth = onHealth;
    this.pending = new Map();
    this.counter = 0;
    this.closed = false;
    this.retry = 0;
    this.ws = null;
    this.pinger = null;
  }

  connect() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const auth = token();
    this.usedToken = auth;
    const url = `${scheme}//${window.location.host}/ws/tables/${encodeURIComponent(this.tableId)}${auth ? `?token=${encodeURIComponent(auth)}` : ""}`;
    this.onStatus("connecting");
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.onStatus("open");
      window.clearInterval(this.pinger);
      this.ping();
      this.pinger = window.setInterval(() => this.ping(), PING_EVERY);
    });
    ws.addEventListener("message", (e) => this.receive(e.data));
    ws.addEventListener("close", (e) => this.closedBy(e));
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    const waiting = msg.request_id ? this.pending.get(msg.request_id) : null;
    const answers = ["ok", "error", "pong", "roads", "snapshot"];
    if (waiting && answers.includes(msg.type)) {
      this.pending.delete(msg.request_id);
      window.clearTimeout(waiting.timer);
      if (msg.type === "error") waiting.reject(new ApiError(msg.error, msg.message, 0, msg.params || null));
      else waiting.resolve(msg);
      if (msg.type !== "roads" && msg.type !== "snapshot") return;
    }
    this.onMessage(msg);
  }

  closedBy(event) {
    window.clearInterval(this.pinger);
    for (const waiting of this.pending.values()) {
      window.clearTimeout(waiting.timer);
      waiting.reject(new ApiError("unavailable", "connection lost"));
    }
    this.pending.clear();
    if (this.closed) return;
    if (event.code === CLOSE_EXPIRED && !(token() && token() !== this.usedToken)) {
      this.onStatus("expired", event.reason);
      return;
    }
    // A token renewed meanwhile (session.js) reconnects with the new one.
    if (event.code === CLOSE_NO_TABLE) {
      this.onStatus("no_table", event.reason);
      return;
    }
    this.onStatus("reconnecting", event.reason);
    const delay = Math.min(5000, 500 * 2 ** this.retry++);
    window.setTimeout(() => {
      if (!this.closed) this.connect();
    }, delay);
  }

  /** Measure the round trip of one `ping` (its `pong`), for the connection indicator. */
  ping() {
    const sent = window.performance.now();
    this.send("ping", {}, PING_EVERY).then(
      () => this.onHealth(Math.round(window.performance.now() - sent)),
      (err) => { if (!this.closed && err && err.code === "timeout") this.onHealth(null); },
    );
  }

  /** Send a message; resolves with the `ok` (or `pong`/`roads`/`snapshot`), rejects with an ApiError. */
  send(type, fields = {}, wait = 15000) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new ApiError("unavailable", "not connected"));
        return;
      }
      const request_id = `c${++this.counter}`;
      const timer = window.setTimeout(() => {
        this.pending.delete(request_id);
        reject(new ApiError("timeout", "no answer from the server"));
      }, wait);
      this.pending.set(request_id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ type, ...fields, request_id }));
    });
  }

  close() {
    this.closed = true;
    window.clearInterval(this.pinger);
    if (this.ws) this.ws.close(1000);
  }
}
