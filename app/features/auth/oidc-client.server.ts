// The relying party: authorization-code flow with PKCE (S256), state and nonce (openid-client 6).
import * as client from "openid-client";
import type { LoginFlow } from "./login-flows.server";

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `${publicUrl}/auth/callback`, registered at the provider. */
  redirectUri: string;
  /** Plain-http issuer: only the development provider or a loopback test issuer. */
  allowHttp: boolean;
  /** Extra authorization parameters (the development provider asks for a fresh login). */
  extraParams?: Record<string, string>;
}

export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}

export class OidcClient {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(private readonly options: OidcClientOptions) {}

  /** Discovery runs on first use (the issuer may be this very server) and is retried after a failure. */
  private config(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret, allowHttp } = this.options;
    this.configuration ??= client
      .discovery(
        new URL(issuer),
        clientId,
        clientSecret,
        undefined,
        allowHttp ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw error;
      });
    return this.configuration;
  }

  /** The provider URL to send the popup to, and the values the callback must see again. */
  async start(): Promise<{ url: URL; flow: LoginFlow }> {
    const config = await this.config();
    const flow: LoginFlow = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.options.redirectUri,
      scope: "openid email profile",
      code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: "S256",
      state: flow.state,
      nonce: flow.nonce,
      ...this.options.extraParams,
    });
    return { url, flow };
  }

  /**
   * Exchanges the code: openid-client checks state, issuer, the ID token (signature, audience,
   * nonce) and the provider checks the PKCE verifier. Returns the identity claims, from the
   * ID token or, when it carries no email, from userinfo.
   */
  async finish(callbackUrl: URL, flow: LoginFlow): Promise<Record<string, unknown>> {
    const config = await this.config();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      pkceCodeVerifier: flow.codeVerifier,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error("The identity provider returned no ID token.");
    if (typeof claims.email === "string") return { ...claims };
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    // The ID token's issuer (checked by openid-client): users are keyed by issuer and sub.
    return { ...info, sub: claims.sub, iss: claims.iss };
  }
}
