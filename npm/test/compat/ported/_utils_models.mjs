// From langchain-ai/langgraphjs@f8bdf16d4fe23a79e945ea5dc6f86bbf09abb77d libs/langgraph-core/src/tests/utils.models.ts,
// transpiled from TypeScript (types erased); fake chat models built on @langchain/core only.
import { BaseChatModel, } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { RunnableLambda } from "@langchain/core/runnables";
import { v4 as uuidv4 } from "@langchain/core/utils/uuid";
export class FakeChatModel extends BaseChatModel {
    responses;
    callCount = 0;
    streamMessageId;
    constructor(fields) {
        super(fields);
        this.responses = fields.responses;
        this.streamMessageId = fields.streamMessageId ?? "omit";
    }
    _combineLLMOutput() {
        return [];
    }
    _llmType() {
        return "fake";
    }
    async _generate(messages, options) {
        if (options?.stop?.length) {
            return {
                generations: [
                    {
                        message: new AIMessage(options.stop[0]),
                        text: options.stop[0],
                    },
                ],
            };
        }
        const response = this.responses[this.callCount % this.responses.length];
        const text = messages.map((m) => m.content).join("\n");
        this.callCount += 1;
        return {
            generations: [
                {
                    message: response ?? new AIMessage(text),
                    text: response ? response.content : text,
                },
            ],
            llmOutput: {},
        };
    }
    async *_streamResponseChunks(_input, _options, runManager) {
        const response = this.responses[this.callCount % this.responses.length];
        let isFirstChunk = true;
        const completionId = response.id ?? uuidv4();
        for (const content of response.content.split("")) {
            let id;
            if (this.streamMessageId === "always" ||
                (this.streamMessageId === "first-only" && isFirstChunk)) {
                id = completionId;
            }
            const chunk = new ChatGenerationChunk({
                message: new AIMessageChunk({ content, id }),
                text: content,
            });
            await runManager?.handleLLMNewToken(content, undefined, undefined, undefined, undefined, { chunk });
            // TODO: workaround for the issue found in Node 18.x
            // where @langchain/core/utils/stream AsyncGeneratorWithSetup
            // does for some reason not yield the first chunk to the consumer
            // and instead the LLM token callback is seen first.
            yield chunk;
            isFirstChunk = false;
        }
        this.callCount += 1;
    }
}
export class FakeToolCallingChatModel extends BaseChatModel {
    sleep = 50;
    responses;
    thrownErrorString;
    idx;
    toolStyle = "openai";
    structuredResponse;
    // Track messages passed to structured output calls
    structuredOutputMessages = [];
    constructor(fields) {
        super(fields);
        this.sleep = fields.sleep ?? this.sleep;
        this.responses = fields.responses;
        this.thrownErrorString = fields.thrownErrorString;
        this.idx = 0;
        this.toolStyle = fields.toolStyle ?? this.toolStyle;
        this.structuredResponse = fields.structuredResponse;
        this.structuredOutputMessages = [];
    }
    _llmType() {
        return "fake";
    }
    async _generate(messages, _options, runManager) {
        if (this.thrownErrorString) {
            throw new Error(this.thrownErrorString);
        }
        if (this.sleep !== undefined) {
            await new Promise((resolve) => setTimeout(resolve, this.sleep));
        }
        const responses = this.responses?.length ? this.responses : messages;
        const msg = responses[this.idx % responses.length];
        const generation = {
            generations: [
                {
                    text: "",
                    message: msg,
                },
            ],
        };
        this.idx += 1;
        if (typeof msg.content === "string") {
            await runManager?.handleLLMNewToken(msg.content);
        }
        return generation;
    }
    bindTools(tools) {
        const toolDicts = [];
        const serverTools = [];
        for (const tool of tools) {
            if (!("name" in tool)) {
                serverTools.push(tool);
                continue;
            }
            // NOTE: this is a simplified tool spec for testing purposes only
            if (this.toolStyle === "openai") {
                toolDicts.push({
                    type: "function",
                    function: {
                        name: tool.name,
                    },
                });
            }
            else if (["anthropic", "google"].includes(this.toolStyle)) {
                toolDicts.push({
                    name: tool.name,
                });
            }
            else if (this.toolStyle === "bedrock") {
                toolDicts.push({
                    toolSpec: {
                        name: tool.name,
                    },
                });
            }
        }
        let toolsToBind = toolDicts;
        if (this.toolStyle === "google") {
            toolsToBind = [{ functionDeclarations: toolDicts }];
        }
        return this.withConfig({
            tools: [...toolsToBind, ...serverTools],
        });
    }
    withStructuredOutput(_) {
        if (!this.structuredResponse) {
            throw new Error("No structured response provided");
        }
        // Create a runnable that returns the proper structured format
        return RunnableLambda.from(async (messages) => {
            if (this.sleep) {
                await new Promise((resolve) => setTimeout(resolve, this.sleep));
            }
            // Store the messages that were sent to generate structured output
            this.structuredOutputMessages.push([...messages]);
            // Return in the format expected: { raw: BaseMessage, parsed: RunOutput }
            return this.structuredResponse;
        });
    }
}
export class FakeConfigurableModel extends BaseChatModel {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    _queuedMethodOperations = {};
    _chatModel;
    constructor(fields) {
        super(fields);
        this._chatModel = fields.model;
    }
    _llmType() {
        return "fake_configurable";
    }
    async _generate(_messages, _options, _runManager) {
        throw new Error("Not implemented");
    }
    async _model() {
        return this._chatModel;
    }
    bindTools(tools) {
        const modelWithTools = new FakeConfigurableModel({
            model: this._chatModel.bindTools(tools),
        });
        modelWithTools._queuedMethodOperations.bindTools = tools;
        return modelWithTools;
    }
}
