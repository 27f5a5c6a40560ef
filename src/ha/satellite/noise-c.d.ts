// Types for the part of @richardhopton/noise-c.wasm hark uses (the package ships none).
declare module '@richardhopton/noise-c.wasm' {
  export interface CipherState {
    EncryptWithAd(ad: Uint8Array | number[], plaintext: Uint8Array): Uint8Array;
    DecryptWithAd(ad: Uint8Array | number[], ciphertext: Uint8Array): Uint8Array;
    free(): void;
  }
  export interface HandshakeState {
    Initialize(prologue: Uint8Array | null, s: Uint8Array | null, rs: Uint8Array | null, psk: Uint8Array | null): void;
    WriteMessage(payload?: Uint8Array | null): Uint8Array;
    ReadMessage(message: Uint8Array, payloadNeeded?: boolean): Uint8Array | null;
    Split(): [CipherState, CipherState];
    free(): void;
  }
  export interface Noise {
    HandshakeState(protocol: string, role: number): HandshakeState;
    constants: { NOISE_ROLE_INITIATOR: number; NOISE_ROLE_RESPONDER: number };
  }
  const createNoise: (ready: (noise: Noise) => void) => void;
  export default createNoise;
}
