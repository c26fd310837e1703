// oidc-provider ships no TypeScript types: the small part the development provider uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface ClaimsSource {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  interface GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface GrantClass {
    new (init: { clientId: string; accountId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  }

  export interface KoaContext {
    type: string;
    body: unknown;
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
  }

  export interface Configuration {
    clients: Array<Record<string, unknown>>;
    claims: Record<string, string[]>;
    conformIdTokenClaims: boolean;
    features: Record<string, { enabled: boolean }>;
    pkce: { required: () => boolean };
    jwks: { keys: Array<Record<string, unknown>> };
    ttl: Record<string, number>;
    cookies: { keys: string[] };
    interactions: { url(ctx: KoaContext, interaction: { uid: string }): Promise<string> | string };
    loadExistingGrant(ctx: KoaContext): Promise<GrantInstance | undefined>;
    findAccount(ctx: KoaContext, sub: string): Promise<ClaimsSource | undefined>;
    renderError(ctx: KoaContext, out: Record<string, string>, error: unknown): Promise<void>;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[] };
    params: Record<string, unknown>;
  }

  export class Provider {
    constructor(issuer: string, configuration: Configuration);
    proxy: boolean;
    Grant: GrantClass;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export default Provider;
}
