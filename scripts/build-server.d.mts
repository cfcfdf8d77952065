export declare const SERVER_ENTRY: string;
export declare const SERVER_BUNDLE: string;
export declare function buildServer(outfile?: string): Promise<void>;
