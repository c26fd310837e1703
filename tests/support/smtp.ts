// A real SMTP server in the test process (the `smtp-server` package), on port 0: what arrives is
// parsed with mailparser so tests read it as a recipient would. `failing` makes it refuse every
// message (a mail server that is down for the sender, without closing the port); `holding` makes
// it take messages and never answer.
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface TestSmtp {
  url: string;
  received: ParsedMail[];
  /** Refuse (550) every message while true. */
  failing: boolean;
  /**
   * While true, read each message and never answer it (a sender killed meanwhile has sent
   * nothing: a message counts only once the server accepted it); `held` counts them.
   */
  holding: boolean;
  held: number;
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const state: TestSmtp = {
    url: "",
    received: [],
    failing: false,
    holding: false,
    held: 0,
    close: async () => undefined,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      if (state.holding) {
        stream.resume();
        stream.on("end", () => {
          state.held += 1;
        });
        return;
      }
      if (state.failing) {
        stream.resume();
        stream.on("end", () => {
          const error = new Error("Mailbox unavailable (test)") as Error & { responseCode: number };
          error.responseCode = 550;
          callback(error);
        });
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          state.received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  state.url = `smtp://test:secret@127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
