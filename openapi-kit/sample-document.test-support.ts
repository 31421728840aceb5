/**
 * A small OpenAPI document written to show each rule the readers apply (operations, collections,
 * path matching), shared by their tests.
 */
import { parse } from 'yaml';
import { asOpenApiDocument, type OpenApiDocument, operationSpecs } from './index.ts';

/** A document from its YAML text. */
export const doc = (text: string): OpenApiDocument => asOpenApiDocument(parse(text));

const DOC_TEXT = `
openapi: 3.1.0
security: [{ bearer: [read] }]
paths:
  /things:
    x-max-records: 2
    parameters:
      - { $ref: '#/components/parameters/Trace' }
      - { name: q, in: query, schema: { type: string } }
    get:
      operationId: listThings
      summary: List things
      description: Every thing.
      parameters:
        - { name: q, in: query, required: true, schema: { type: integer } }
      security: [{}]
      responses:
        '200':
          description: The things.
          headers:
            X-Count: { required: true, schema: { type: integer }, example: 3 }
            X-Note: { schema: { type: string }, examples: { first: { value: hello }, second: { value: bye } } }
            X-Plain: { schema: { type: string } }
          content:
            application/json:
              schema: { type: array }
              example: [1]
              examples:
                one: { $ref: '#/components/examples/One' }
                bare: { summary: no value }
        4XX: { $ref: '#/components/responses/Problem' }
        default: { description: Anything else }
    post:
      operationId: createThing
      security: [{ bearer: [write, 1] }, { key: scopes }]
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Thing' }
            x-max-body-bytes: 100
          multipart/form-data:
            schema: { $ref: '#/components/schemas/ThingForm' }
            encoding:
              picture: { contentType: 'Image/PNG, image/webp' }
      responses:
        '201': { description: Created, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
        '204': { description: 'No body' }
  /things/{id}:
    get:
      operationId: getThing
      responses: { '200': { content: { Text/Plain: {} } } }
    put:
      operationId: putThing
      requestBody: { content: { application/json: {} } }
      responses: { '204': { description: Replaced } }
    delete:
      operationId: deleteThing
      responses: { '204': { description: Deleted } }
    patch:
      operationId: patchThing
      responses: { '405': { description: Not allowed } }
  /things/mine:
    get:
      operationId: myThing
      responses: { '200': { description: Mine } }
  /status:
    servers: [{ url: 'https://elsewhere.example' }, { url: / }]
    get:
      operationId: status
      security: []
      responses: { '200': { description: Up } }
  /notes:
    post:
      operationId: createNote
      requestBody: { content: { application/json: {} } }
      responses: { '201': { description: Created } }
  /either:
    get:
      operationId: either
      security: [{}, { bearer: [] }]
      responses: {}
  /drafts:
    servers: [{ url: 'https://elsewhere.example' }, null]
    get: { operationId: listDrafts }
    post: { operationId: createDraft, requestBody: { content: { application/json: {} } }, responses: { '200': {} } }
  /drafts/{id}:
    get: { operationId: getDraft }
  /forms:
    get: { operationId: listForms }
    post: { operationId: createForm, requestBody: { content: { multipart/form-data: {} } }, responses: { '201': {} } }
  /forms/{id}:
    get: { operationId: getForm }
  /drops:
    get: { operationId: listDrops }
    post: { operationId: createDrop, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
  /drops/{id}:
    delete: { operationId: deleteDrop }
  /notes/{id}:
    get: { operationId: getNote }
  /boxes/{b}:
    get: { operationId: listBox }
    post: { operationId: createInBox, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
  /boxes/{b}/{item}:
    get: { operationId: getInBox }
  /singleton:
    get: { operationId: getSingleton, responses: {} }
    post:
      operationId: createSingleton
      requestBody: { content: { application/json: {} } }
      responses: { '201': { description: Created } }
  /ignored: 7
  /blank:
components:
  parameters:
    Trace: { name: X-Trace, in: header, schema: { type: string } }
  examples:
    One: { value: [1, 2] }
  responses:
    Problem:
      description: A problem.
      content: { application/problem+json: { schema: { type: object } } }
  schemas:
    Thing: { type: object, properties: { name: { type: string } } }
    ThingForm:
      type: object
      properties:
        name: { type: string }
        picture: { $ref: '#/components/schemas/Picture' }
        photo: { type: string, contentMediaType: Image/WebP, maxLength: 50 }
        scan:
          anyOf:
            - { type: string, contentMediaType: image/png, maxLength: 10 }
            - { type: string, contentMediaType: image/gif }
        mixed:
          anyOf:
            - { type: string, contentMediaType: image/png }
            - { type: string }
        empty: { anyOf: [] }
    Picture:
      anyOf:
        - { type: string, contentMediaType: image/png, maxLength: 20 }
        - { $ref: '#/components/schemas/Jpeg' }
    Jpeg: { type: string, contentMediaType: image/jpeg, maxLength: 30 }
`;

// Read inside each test rather than at load, so that what a test asserts is what it ran.
export const DOC = () => doc(DOC_TEXT);
export const ops = () => operationSpecs(DOC());
export const op = (id: string) => ops().find((o) => o.id === id)!;
