import { z } from 'zod';
import type { ControlTool } from './control-tool';

export const QuestionSchema = z.object({
  question: z.string().min(1).describe('The question for the user'),
  context: z.string().optional().describe('Why you need to know, and what you will do with the answer'),
});
export type Question = z.infer<typeof QuestionSchema>;

export const needMoreInformation: ControlTool<typeof QuestionSchema> = {
  name: 'need_more_information',
  description:
    'Ask the user a question when you cannot go on without their answer. The run waits for the reply, which comes back as this tool\'s result.',
  inputSchema: QuestionSchema,
};
